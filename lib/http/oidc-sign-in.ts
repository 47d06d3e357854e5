// The sign-in route's part in signing in through the identity provider (lib/http/next-auth-route.ts
// calls it around next-auth for /api/auth/signin/oidc and /api/auth/callback/oidc):
// - before next-auth: both paths are 404 while no provider is configured; the provider's endpoints
//   are read (kept an hour: lib/auth/oidc/discovery.ts), and a provider that cannot be reached sends
//   the browser to the sign-in page, which says so; an answer (the callback, the one step that makes
//   this server call the provider) is admitted by the client address's allowance of sign-in attempts
//   (PASSWORD_ATTEMPTS_PER_MINUTE) before its code is traded, and given back when it signs in;
// - after: a callback next-auth refused goes to the sign-in page with the reason in words
//   (lib/auth/oidc/refusals.ts) instead of next-auth's own code, and is written to the audit trail.
// Refusals decided on the ID token's claims (email, domain, account) are lib/auth/oidc/admission.ts's.
import 'server-only';
import { admitPasswordAttempt, type PasswordAttempt } from '../auth/passwords/admission';
import { recordOidcRefusal, refusedTo } from '../auth/oidc/admission';
import { callbackRefusal, noteCallbackFailures } from '../auth/oidc/callback-failure';
import { oidcConfig } from '../auth/oidc/config';
import { oidcEndpoints } from '../auth/oidc/discovery';
import type { OidcRefusal } from '../auth/oidc/refusals';
import { ApiError } from '../errors';
import { countOidcSignIn } from '../metrics/registry';
import { clientAddress, UNKNOWN_ADDRESS } from '../shared/client-address';
import { requestIdOf } from '../shared/request-id';

export type OidcStep = 'signin' | 'callback';

/** Sends the browser to the sign-in page with `code`: a redirect for the callback, `{url}` for the button's POST. */
function toSignInPage(step: OidcStep, code: OidcRefusal): Response {
  const url = refusedTo(code);
  return step === 'callback' ? new Response(null, { status: 302, headers: { location: url } }) : Response.json({ url });
}

const contextOf = (request: Request) => {
  const address = clientAddress(request);
  return { requestId: requestIdOf(request), ...(address === UNKNOWN_ADDRESS ? {} : { clientAddress: address }) };
};

export type OidcRun = {
  /** Runs next-auth, keeping why it refused a callback. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** next-auth's answer, as the browser is to get it. */
  settle(answer: Response): Promise<Response>;
};

/** What the route does before next-auth for a `step` request: an answer of its own, or how to run next-auth. */
export async function beginOidcStep(step: OidcStep, request: Request): Promise<Response | OidcRun> {
  const config = oidcConfig();
  if (!config) throw new ApiError('auth_endpoint_not_found', 'No sign-in endpoint at this path');
  let attempt: PasswordAttempt | null = null;
  if (step === 'callback') {
    try {
      attempt = admitPasswordAttempt(clientAddress(request));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      countOidcSignIn('too_many_attempts');
      return toSignInPage(step, 'OidcTooManyAttempts');
    }
  }
  try {
    await oidcEndpoints(config);
  } catch {
    // Why is in the log (discovery.ts); the audit trail has nothing to say about a provider that is down.
    countOidcSignIn('unavailable');
    return toSignInPage(step, 'OidcUnavailable');
  }
  let reason: string | null = null;
  return {
    async run(work) {
      const noted = await noteCallbackFailures(work);
      reason = noted.reason;
      return noted.result;
    },
    async settle(answer) {
      if (step !== 'callback') return answer;
      const location = answer.headers.get('location');
      const error = location ? new URL(location, 'http://x.invalid').searchParams.get('error') : null;
      // next-auth's own codes for a refused answer; the admission's refusals are already in words.
      if (error === 'OAuthCallback' || error === 'Callback' || (error === null && reason !== null)) {
        const providerError = new URL(request.url).searchParams.get('error');
        const code = callbackRefusal(providerError, reason);
        await recordOidcRefusal(code, { reason: providerError ? `the provider answered ${providerError.slice(0, 64)}` : (reason ?? 'refused') }, contextOf(request));
        answer.headers.set('location', refusedTo(code));
      }
      if (answer.headers.getSetCookie().some((cookie) => /^(__Secure-)?next-auth\.session-token=[^;]/.test(cookie))) attempt?.succeeded();
      return answer;
    },
  };
}
