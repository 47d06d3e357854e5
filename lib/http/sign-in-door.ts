// The production server's door for sign-ins (server/direct-routes.ts asks it first, for every
// request): a password attempt from an address whose allowance is spent is refused there, with
// the answer the sign-in route would give (lib/http/next-auth-route.ts), before Next's router sees
// it. Through the router and the route, each refusal cost several milliseconds of the main thread,
// which a burst of them took from every other request. The door decides as the route does: the
// same table of next-auth's endpoints (lib/auth/sessions/next-auth-endpoints.ts), on the segments
// Next's router would hand the route, and the same per-address counts (lib/auth/passwords/admission.ts,
// kept process-wide, so the server's bundle and the route's read one count). It only reads the count:
// the route counts each attempt it admits, so the counts stay exact. Where the server does not run
// (Vercel, next start), the route refuses alone.
import 'server-only';
import { spentPasswordAllowance } from '../auth/passwords/admission';
import { isPasswordAttempt } from '../auth/sessions/next-auth-endpoints';
import { countPasswordAttemptRefused } from '../metrics/registry';
import { clientAddress } from '../shared/client-address';
import { errorResponse } from './error-response';
import { uncached } from './respond';

export const SIGN_IN_ROUTE_PREFIX = '/api/auth/';
// Any origin: only the path of what it parses is read.
const PARSING_BASE = 'http://door.invalid';

/**
 * The segments after /api/auth/ that Next's router hands the sign-in route (its `nextauth` param)
 * for `target`, an origin-form target as lib/http/request-target.ts settled it; null when the path
 * is not the route's, or when Next answers it with a redirect before routing: `//` or a backslash
 * in the path, or a trailing slash. As Next does, dot segments (`.`, `..`, `%2e`) are resolved as a
 * URL parser resolves them, and each segment is decoded on its own (so `%2F` stays inside one).
 */
export function signInRouteSegments(target: string): string[] | null {
  const path = target.split(/[?#]/, 1)[0];
  if (path.includes('//') || path.includes('\\')) return null;
  let pathname: string;
  try {
    pathname = new URL(path, PARSING_BASE).pathname;
  } catch {
    return null;
  }
  if (!pathname.startsWith(SIGN_IN_ROUTE_PREFIX) || pathname.endsWith('/')) return null;
  try {
    return pathname.slice(SIGN_IN_ROUTE_PREFIX.length).split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
}

/**
 * The sign-in route's answer to a password attempt whose address has spent its allowance (the 429
 * with Retry-After, never cached), or null for anything else: every other request, and a password
 * attempt the allowance still has room for, which the route counts. `forwardedFor` is the request's
 * X-Forwarded-For as server/forwarded-headers.ts settled it, which names the client.
 */
export function refusalAtTheDoor(method: string, target: string, forwardedFor: string | undefined): Response | null {
  // Cheap tests first: the door reads only POSTs whose path could name /api/auth/ (literally, or
  // through escapes).
  if (method !== 'POST' || !(target.includes('/auth/') || target.includes('%'))) return null;
  const segments = signInRouteSegments(target);
  if (!segments || !isPasswordAttempt(method, segments)) return null;
  const spent = spentPasswordAllowance(clientAddress(new Headers(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {})));
  if (!spent) return null;
  countPasswordAttemptRefused('door');
  return uncached(errorResponse(spent));
}
