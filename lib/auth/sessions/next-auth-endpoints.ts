// next-auth's endpoints under /api/auth/, as this app uses them. next-auth 4 chooses what to run
// from the method and the first two segments of the path alone, its action and its provider
// (`nextauth[0]` and `nextauth[1]` in next-auth/next), and the catch-all route hands it paths of
// any depth: so /api/auth/callback/credentials/x checked a password as /callback/credentials does,
// outside the address's allowance, which counted only that exact spelling. Here each endpoint is
// its action and, where next-auth reads one, its provider, and nothing more: whatever else is
// sent to /api/auth/ is refused before next-auth runs and before its body is read (404, or 405
// with Allow for a method the endpoint does not take). The sign-in route decides with this table
// (lib/http/next-auth-route.ts), and so does the server's door for a password attempt
// (lib/http/sign-in-door.ts), so the two cannot disagree on what a password attempt is.
import { ApiError } from '../../errors';
import { SECOND_FACTOR_PROVIDER_ID } from '../second-factor/second-step';

/** The Credentials provider's id: the second segment of its callback, /api/auth/callback/credentials. */
export const CREDENTIALS_PROVIDER_ID = 'credentials';

/** The identity provider's id (lib/auth/oidc/config.ts): /api/auth/signin/oidc and /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = 'oidc';

type Endpoint = {
  /** The methods next-auth answers on it (Next answers OPTIONS itself, and hands HEAD to GET, which next-auth refuses). */
  methods: readonly ('GET' | 'POST')[];
  /** A POST checks a password (or a second factor's code): admitted by the address's allowance first. */
  checksPassword?: true;
  /** Answered 204 without next-auth (its `_log`, which writes what a client posts into the error log). */
  dropped?: true;
  /** A step of signing in through the identity provider (lib/http/oidc-sign-in.ts), there only while one is configured. */
  oidc?: 'signin' | 'callback';
};

// next-auth 4's actions (core/index.js), those this app or next-auth's own pages use, each with the
// provider next-auth reads from the second segment where it reads one. Left out: `signin/credentials`
// (for Credentials it only redirects), the error's code as a second segment (the `error` parameter
// says the same), and every other provider (lib/auth/sessions/next-auth.ts).
const ENDPOINTS = new Map<string, Endpoint>([
  ['csrf', { methods: ['GET'] }],
  ['providers', { methods: ['GET'] }],
  // GET reads the session (and renews its cookie); POST updates it.
  ['session', { methods: ['GET', 'POST'] }],
  // Redirects to the sign-in page, /login.
  ['signin', { methods: ['GET'] }],
  // next-auth's sign-out page, and the sign-out its form (and components/sign-out-button.tsx) posts.
  ['signout', { methods: ['GET', 'POST'] }],
  // Where next-auth sends a refusal: a redirect to /login with the reason.
  ['error', { methods: ['GET'] }],
  ['verify-request', { methods: ['GET'] }],
  ['_log', { methods: ['POST'], dropped: true }],
  // The sign-in form's POSTs: the password, and the second factor's code (counted as a password is).
  [`callback/${CREDENTIALS_PROVIDER_ID}`, { methods: ['POST'], checksPassword: true }],
  [`callback/${SECOND_FACTOR_PROVIDER_ID}`, { methods: ['POST'], checksPassword: true }],
  // The sign-in page's button: where to send the browser at the provider (with state, nonce and PKCE).
  [`signin/${OIDC_PROVIDER_ID}`, { methods: ['POST'], oidc: 'signin' }],
  // Where the provider sends the browser back, with the code (in the query: no form_post).
  [`callback/${OIDC_PROVIDER_ID}`, { methods: ['GET'], oidc: 'callback' }],
]);

export type NextAuthRequest = {
  /** A sign-in: a password will be checked, once the address's allowance admits it. */
  passwordAttempt: boolean;
  /** To be answered 204 without next-auth. */
  dropped: boolean;
  /** A step of signing in through the identity provider, or null. */
  oidc: 'signin' | 'callback' | null;
};

/** The endpoint `segments` (the path after /api/auth/, segment by segment, decoded) name, or undefined. */
function endpointAt(segments: readonly string[]): Endpoint | undefined {
  // An action and at most a provider, neither holding a slash of its own (a decoded %2F).
  if (segments.length === 0 || segments.length > 2 || segments.some((segment) => segment.includes('/'))) return undefined;
  return ENDPOINTS.get(segments.join('/'));
}

/**
 * What a `method` request to /api/auth/<segments> is to next-auth; throws the 404 ApiError for a
 * path that is none of its endpoints, and the 405 (with Allow) for a method the endpoint does not take.
 */
export function nextAuthRequest(method: string, segments: readonly string[]): NextAuthRequest {
  const endpoint = endpointAt(segments);
  if (!endpoint) throw new ApiError('auth_endpoint_not_found', 'No sign-in endpoint at this path');
  if (!(endpoint.methods as readonly string[]).includes(method)) {
    throw new ApiError('method_not_allowed', `${method} is not supported here; use ${endpoint.methods.join(' or ')}`, {
      Allow: [...endpoint.methods, 'OPTIONS'].join(', '),
    });
  }
  return { passwordAttempt: method === 'POST' && endpoint.checksPassword === true, dropped: endpoint.dropped === true, oidc: endpoint.oidc ?? null };
}

/** Whether a `method` request to /api/auth/<segments> is a password attempt (nextAuthRequest's answer, without throwing). */
export function isPasswordAttempt(method: string, segments: readonly string[]): boolean {
  const endpoint = endpointAt(segments);
  return method === 'POST' && endpoint?.checksPassword === true;
}
