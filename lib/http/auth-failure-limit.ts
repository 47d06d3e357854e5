// Failed bearer authentications per client address, in fixed one-minute windows
// (AUTH_FAILURES_PER_MINUTE). A forged API token with a valid checksum costs a database read to
// refuse; 7,000 of them were each looked up. Beyond the limit, an address's API tokens are refused
// with a 429 before they are looked up, unless this server has seen the token valid recently, so
// a program sharing an address (a NAT, an office) with a guesser keeps working: such a token is
// checked as always, and if it has since been revoked, that is its answer. Credentials refused
// without the database (a missing or malformed header, a bad checksum, a session token, whose
// signature is checked in memory) are always checked; their failures count too, and past the
// limit they are answered 429 as well.
//
// The counts live in each process's memory. Counting in the database would cost a database write
// per forged token, the very work this saves; with N instances an address gets at most N times the
// limit. A lookup is claimed before it runs (one synchronous step), so a burst of forged tokens
// cannot all start lookups while the first are still in flight.
import 'server-only';
import { authenticate, bearerToken, type Principal } from '../auth/bearer';
import { hashApiToken, isWellFormedApiToken } from '../auth/token-format';
import { processWide } from '../process-wide';
import { clientAddress } from './client-address';
import { ApiError } from './errors';
import { authFailuresPerMinute } from './rate-limit-config';

const WINDOW_MS = 60_000;
// Memory bounds: counts of past windows are dropped past this many addresses, and tokens seen
// valid are remembered (by hash) this long, at most this many.
const MAX_ADDRESSES = 10_000;
const KNOWN_VALID_MS = 60 * 60 * 1000;
const MAX_KNOWN_VALID = 10_000;

type Window = { start: number; failures: number };
const state = processWide('auth-failure-limit', () => ({
  windows: new Map<string, Window>(),
  knownValid: new Map<string, number>(),
}));

/** The bucket an address counts in: one address, or for IPv6 its /64, which one client usually holds whole. */
export function addressBucket(address: string): string {
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

function windowOf(bucket: string, now: number): Window {
  const start = now - (now % WINDOW_MS);
  const current = state.windows.get(bucket);
  if (current && current.start === start) return current;
  if (state.windows.size >= MAX_ADDRESSES) {
    for (const [stale, window] of state.windows) if (window.start < start) state.windows.delete(stale);
    // Still full of this window's counts: the oldest entry makes room.
    if (state.windows.size >= MAX_ADDRESSES) state.windows.delete(state.windows.keys().next().value!);
  }
  const fresh = { start, failures: 0 };
  state.windows.set(bucket, fresh);
  return fresh;
}

function tooMany(limit: number, window: Window, now: number): ApiError {
  const retryAfter = Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000));
  return new ApiError(
    'too_many_failed_authentications',
    `Too many failed authentications from this address: ${limit} a minute are allowed; retry in ${retryAfter} s`,
    { 'Retry-After': String(retryAfter) },
  );
}

function isKnownValid(hash: string, now: number): boolean {
  const until = state.knownValid.get(hash);
  return until !== undefined && until > now;
}

function rememberValid(hash: string, now: number): void {
  state.knownValid.delete(hash);
  if (state.knownValid.size >= MAX_KNOWN_VALID) state.knownValid.delete(state.knownValid.keys().next().value!);
  state.knownValid.set(hash, now + KNOWN_VALID_MS);
}

const isAuthenticationFailure = (error: unknown) => error instanceof ApiError && error.status === 401;

/**
 * authenticate(), within the caller's address's allowance of failures: throws the 429 ApiError
 * (with Retry-After) when the address is over it, or the 401 that authenticate() throws.
 */
export async function authenticateWithinLimit(request: Request, now = Date.now()): Promise<Principal> {
  const limit = authFailuresPerMinute();
  if (limit === 0) return authenticate(request);
  const window = windowOf(addressBucket(clientAddress(request)), now);
  const token = bearerToken(request);
  const lookedUp = token !== null && isWellFormedApiToken(token);
  const hash = lookedUp ? hashApiToken(token) : null;
  // A token that needs a database read and is not known to be good claims a failure first; a
  // success gives it back.
  const claimed = hash !== null && !isKnownValid(hash, now);
  if (claimed) {
    if (window.failures >= limit) throw tooMany(limit, window, now);
    window.failures++;
  }
  try {
    const principal = await authenticate(request);
    if (claimed) window.failures--;
    if (hash) rememberValid(hash, now);
    return principal;
  } catch (error) {
    if (!isAuthenticationFailure(error)) {
      if (claimed) window.failures--;
      throw error;
    }
    if (claimed) throw error;
    window.failures++;
    // A token seen valid before was checked as always: its refusal (revoked, expired) stands.
    if (hash) {
      state.knownValid.delete(hash);
      throw error;
    }
    throw window.failures > limit ? tooMany(limit, window, now) : error;
  }
}
