// Staff sign-in with next-auth: the Credentials provider checks an email and a scrypt hash, and a
// JWT session cookie holds the signed-in state (no session table to keep).
import 'server-only';
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { incomingRequest } from '../../audit/incoming-request';
import { endSessions } from '../accounts/changes';
import { returnPathOn } from './return-path';
import { CREDENTIALS_PROVIDER_ID } from './next-auth-endpoints';
import { resolveAuthSecret } from './secret';
import { SESSION_MAX_AGE_SECONDS, encodeWithinMaxAge, newSessionClaims, sessionEndReason } from './rules';
import { authorizeStaff } from './sign-in';
import { secondStepProvider } from '../second-factor/provider';
import { log } from '../../log';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { settings } from '../../settings';
import { admitOidcSignIn } from '../oidc/admission';
import { noteCallbackFailure } from '../oidc/callback-failure';
import { OIDC_PROVIDER_ID, oidcConfig } from '../oidc/config';
import { oidcProvider } from '../oidc/provider';

// next-auth takes its origin from the X-Forwarded-Host and -Proto it is handed: the /api/auth
// route hands it the configured public origin, never a client's (lib/http/next-auth-route.ts).
// NEXTAUTH_URL, when set, still wins.
process.env.AUTH_TRUST_HOST = 'true';

let options: NextAuthOptions | undefined;

const credentials = CredentialsProvider({
  id: CREDENTIALS_PROVIDER_ID,
  name: 'Email and password',
  credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
  authorize: authorizeStaff,
});

/** The identity provider, when one is configured. */
function oidcProviders() {
  const config = oidcConfig();
  return config ? [oidcProvider(config)] : [];
}

/** Built on first use, so neither the build nor a page that needs no session reads the secret. */
export function authOptions(): NextAuthOptions {
  return (options ??= {
    secret: resolveAuthSecret().secret,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    jwt: { encode: encodeWithinMaxAge },
    // httpOnly and SameSite=Lax are next-auth's defaults; Secure follows the environment, so
    // production cookies never travel over plain HTTP. AUTH_COOKIE_SECURE=false is the escape
    // hatch for a production build served over plain HTTP on a private network.
    useSecureCookies: process.env.NODE_ENV === 'production' && settings().AUTH_COOKIE_SECURE,
    pages: { signIn: '/login', error: '/login' },
    // A getter: the identity provider is built with the endpoints its discovery read, which the
    // sign-in route has read before next-auth runs (lib/http/oidc-sign-in.ts).
    get providers() {
      return [credentials, secondStepProvider(), ...oidcProviders()];
    },
    callbacks: {
      // The password was checked by authorizeStaff; an ID token's claims are checked here.
      signIn: (params) => (params.account?.provider === OIDC_PROVIDER_ID ? admitOidcSignIn(params) : true),
      // Wherever a request says to go next, it is a path on this site, and it is sent as a path:
      // a browser resolves it against the address it used, so no origin needs naming.
      redirect: ({ url, baseUrl }) => returnPathOn(baseUrl, url),
      // Runs at sign-in (with `user`) and on every read of the session (pages, server actions,
      // GET /api/auth/session). Throwing ends the session: next-auth then clears the cookie. A
      // database that does not answer ends nothing: the cookie is kept as it was, and whatever
      // the session is read for asks the database itself next (currentStaff), which answers 503.
      async jwt({ token, user, account }) {
        if (user) {
          const via = account?.provider === OIDC_PROVIDER_ID ? 'oidc' : 'password';
          return { ...token, ...newSessionClaims((user as unknown as { sessionVersion: number }).sessionVersion, via) };
        }
        let ended: string | null;
        try {
          ended = await sessionEndReason(token);
        } catch (error) {
          if (isDatabaseUnavailable(error)) return token;
          throw error;
        }
        if (ended) throw new Error(`session ended: ${ended}`);
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { email: token.email, id: token.sub, ver: token.ver, via: token.via ?? 'password' } };
      },
    },
    events: {
      // Sign-out ends the session on the server too: a copy of the cookie stops working.
      async signOut({ token }) {
        if (token?.sub) await endSessions(token.sub, 'sign-out', {
            actor: { type: 'staff', id: token.sub, name: String(token.email ?? '') },
            ...(await incomingRequest()),
          });
      },
    },
    logger: {
      // next-auth logs refused sign-ins as errors with their stack; a wrong password is not a fault.
      error(code, metadata) {
        if (code === 'CREDENTIALS_SIGNIN' || code === 'JWT_SESSION_ERROR') return;
        // A refused answer from the identity provider: the sign-in route audits it, with this reason.
        if (code.startsWith('OAUTH_CALLBACK')) return noteCallbackFailure(metadata);
        const detail = metadata instanceof Error ? metadata.message : (metadata as { message?: string })?.message;
        log.error(`next-auth ${code}`, { detail: String(detail ?? '') });
      },
      warn() {},
      debug() {},
    },
  });
}
