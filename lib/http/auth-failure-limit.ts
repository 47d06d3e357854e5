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
// The counts live in each process's memory (lib/shared/address-windows.ts). A lookup is claimed
// before it runs (one synchronous step), so a burst of forged tokens cannot all start lookups while
// the first are still in flight.
import 'server-only';
import { authenticate, bearerToken, type Principal } from '../auth/tokens/bearer';
import { hashApiToken, isWellFormedApiToken } from '../auth/tokens/format';
import { processWide } from '../process-wide';
import { settings } from '../settings';
import { addressWindows, limitReached, type AddressWindow } from '../shared/address-windows';
import { clientAddress } from '../shared/client-address';
import { ApiError } from '../errors';
import { now as clockNow } from '../shared/clock';

// Tokens seen valid are remembered (by hash) this long, at most this many.
const KNOWN_VALID_MS = 60 * 60 * 1000;
const MAX_KNOWN_VALID = 10_000;

const failures = addressWindows('bearer-failures');
const state = processWide('auth-failure-limit', () => ({ knownValid: new Map<string, number>() }));

const tooMany = (limit: number, window: AddressWindow, now: number) => limitReached('too_many_failed_authentications', 'failed authentications', limit, window, now);

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
export async function authenticateWithinLimit(request: Request, now = clockNow()): Promise<Principal> {
  const limit = settings().AUTH_FAILURES_PER_MINUTE;
  if (limit === 0) return authenticate(request);
  const window = failures.of(clientAddress(request), now);
  const token = bearerToken(request);
  const lookedUp = token !== null && isWellFormedApiToken(token);
  const hash = lookedUp ? hashApiToken(token) : null;
  // A token that needs a database read and is not known to be good claims a failure first; a
  // success gives it back.
  const claimed = hash !== null && !isKnownValid(hash, now);
  if (claimed) {
    if (window.count >= limit) throw tooMany(limit, window, now);
    window.count++;
  }
  try {
    const principal = await authenticate(request);
    if (claimed) window.count--;
    if (hash) rememberValid(hash, now);
    return principal;
  } catch (error) {
    if (!isAuthenticationFailure(error)) {
      if (claimed) window.count--;
      throw error;
    }
    if (claimed) throw error;
    window.count++;
    // A token seen valid before was checked as always: its refusal (revoked, expired) stands.
    if (hash) {
      state.knownValid.delete(hash);
      throw error;
    }
    throw window.count > limit ? tooMany(limit, window, now) : error;
  }
}
