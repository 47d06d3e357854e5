// Staff sign-in with next-auth: the Credentials provider checks an email and a scrypt hash, and a
// JWT session cookie holds the signed-in state (no session table to keep).
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { clearLoginFailures, loginRetryAfterSeconds, recordLoginFailure } from './login-throttle';
import { dummyPasswordHash, verifyPassword } from './password';
import { resolveAuthSecret } from './secret';
import { tooManyAttemptsError } from './sign-in-refusal';
import { findUserByEmail } from './users';
import { log } from '../log';

export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

// The app answers on whatever address it is reached at (a port picked at random in tests, a
// proxy's public name in production); next-auth otherwise assumes http://localhost:3000.
// NEXTAUTH_URL, when set, still wins.
process.env.AUTH_TRUST_HOST ??= 'true';

async function authorize(credentials: Record<'email' | 'password', string> | undefined) {
  const email = credentials?.email?.trim() ?? '';
  const password = credentials?.password ?? '';
  if (!email || !password) return null;

  const waitSeconds = await loginRetryAfterSeconds(email);
  if (waitSeconds > 0) throw tooManyAttemptsError(waitSeconds);

  // An unknown email is checked against a dummy hash, so it costs what a wrong password costs.
  const user = await findUserByEmail(email);
  const matches = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
  if (!user || !matches) {
    await recordLoginFailure(email);
    return null;
  }
  await clearLoginFailures(email);
  return { id: user.id, email: user.email };
}

let options: NextAuthOptions | undefined;

/** Built on first use, so neither the build nor a page that needs no session reads the secret. */
export function authOptions(): NextAuthOptions {
  return (options ??= {
    secret: resolveAuthSecret().secret,
    session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
    // httpOnly and SameSite=Lax are next-auth's defaults; Secure follows the environment, so
    // production cookies never travel over plain HTTP. AUTH_COOKIE_SECURE=false is the escape
    // hatch for a production build served over plain HTTP on a private network.
    useSecureCookies: process.env.NODE_ENV === 'production' && process.env.AUTH_COOKIE_SECURE !== 'false',
    pages: { signIn: '/login', error: '/login' },
    providers: [
      CredentialsProvider({
        name: 'Email and password',
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize,
      }),
    ],
    callbacks: {
      session({ session, token }) {
        return { ...session, user: { email: token.email, id: token.sub } };
      },
    },
    logger: {
      // next-auth logs refused sign-ins as errors with their stack; a wrong password is not a fault.
      error(code, metadata) {
        if (code === 'CREDENTIALS_SIGNIN' || code === 'JWT_SESSION_ERROR') return;
        const detail = metadata instanceof Error ? metadata.message : (metadata as { message?: string })?.message;
        log.error(`next-auth ${code}`, { detail: String(detail ?? '') });
      },
      warn() {},
      debug() {},
    },
  });
}
