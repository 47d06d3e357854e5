// Password work is the costliest thing a stranger can start: one scrypt hash is tens of
// milliseconds of a core and 32 MiB, and the sign-in and set-password forms are open to anyone.
// Unchecked, 32 parallel sign-ins with made-up emails held /api/health for seconds
// (docs/performance.md#sign-in-and-password-hashing): the hashes filled libuv's thread pool,
// which the server also needs for compression and files. So password work is admitted before it
// runs, in two steps:
// - per client address, in one-minute windows (PASSWORD_ATTEMPTS_PER_MINUTE), checked and counted
//   in one synchronous step before anything else is done for the attempt (lib/shared/address-windows.ts);
//   once an address has spent it, the production server refuses its sign-ins before Next's router,
//   reading the same count (spentPasswordAllowance, lib/http/sign-in-door.ts);
// - globally, at most PASSWORD_HASH_CONCURRENCY hashes at once (by default one less than the
//   cores, at least one), with a short queue behind them; past the queue the answer is a quick
//   refusal with Retry-After, so password work never starves the API or health.
// The limits live in each process's memory; each instance admits its own share.
import 'server-only';
import { availableParallelism } from 'node:os';
import { addressWindows, limitReached, type AddressWindow } from '../../shared/address-windows';
import { UNKNOWN_ADDRESS } from '../../shared/client-address';
import { ApiError } from '../../errors';
import { countPasswordAttemptRefused } from '../../metrics/registry';
import { now as clockNow } from '../../shared/clock';
import { settings } from '../../settings';
import { NoSlotError, slots } from '../../slots';

// Hashes that may wait for a slot, per slot: at a hash's cost, a wait of under half a second
// (docs/performance.md#sign-in-and-password-hashing).
const QUEUED_PER_SLOT = 4;
// What a refusal of the global cap asks the client to wait: the queue drains in well under this.
const BUSY_RETRY_AFTER_SECONDS = 1;

const attempts = addressWindows('password-attempts');

export type PasswordAttempt = {
  /** The attempt succeeded: it is given back, so the allowance counts failures (and attempts in flight). */
  succeeded(): void;
};

const UNCOUNTED: PasswordAttempt = { succeeded() {} };

/** The 429 a password attempt meets in `window`, once it holds `limit` attempts. */
const allowanceSpent = (limit: number, window: AddressWindow, now: number) => limitReached('too_many_password_attempts', 'password attempts', limit, window, now);

/**
 * Counts one password attempt (a sign-in, a set-password) from `address`, or throws the 429
 * ApiError with Retry-After when the address has made its allowance this minute.
 */
export function admitPasswordAttempt(address: string | undefined, now = clockNow()): PasswordAttempt {
  const limit = settings().PASSWORD_ATTEMPTS_PER_MINUTE;
  if (limit === 0) return UNCOUNTED;
  const window = attempts.of(address ?? UNKNOWN_ADDRESS, now);
  if (window.count >= limit) {
    countPasswordAttemptRefused('handler');
    throw allowanceSpent(limit, window, now);
  }
  window.count++;
  let given = false;
  return {
    succeeded() {
      if (!given && window.count > 0) window.count--;
      given = true;
    },
  };
}

/**
 * The refusal a password attempt from `address` would meet now, the same 429 admitPasswordAttempt
 * throws, or null while the allowance has room. It counts nothing, so a caller that refuses early
 * (the server's door, lib/http/sign-in-door.ts) leaves the counting to admitPasswordAttempt.
 */
export function spentPasswordAllowance(address: string | undefined, now = clockNow()): ApiError | null {
  const limit = settings().PASSWORD_ATTEMPTS_PER_MINUTE;
  if (limit === 0) return null;
  const window = attempts.current(address ?? UNKNOWN_ADDRESS, now);
  return window && window.count >= limit ? allowanceSpent(limit, window, now) : null;
}

/** The server is hashing as many passwords as it will at once, and as many are waiting. */
export class PasswordHashingBusyError extends ApiError {
  readonly retryAfterSeconds = BUSY_RETRY_AFTER_SECONDS;
  constructor() {
    super('password_hashing_busy', `The server is checking as many passwords as it can; retry in ${BUSY_RETRY_AFTER_SECONDS} s`, {
      'Retry-After': String(BUSY_RETRY_AFTER_SECONDS),
    });
  }
}

/** How many hashes may run at once: PASSWORD_HASH_CONCURRENCY, or one less than the cores. */
function concurrency(): number {
  return settings().PASSWORD_HASH_CONCURRENCY ?? Math.max(1, availableParallelism() - 1);
}

const hashing = slots('password-hashing', concurrency);

/**
 * Runs `work` (one password hash) in a slot of the global cap: at once if one is free, after a
 * short wait in the queue, or not at all (PasswordHashingBusyError) when the queue is full too.
 */
export async function inHashingSlot<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await hashing.run(work, { maxWaiting: concurrency() * QUEUED_PER_SLOT });
  } catch (error) {
    throw error instanceof NoSlotError ? new PasswordHashingBusyError() : error;
  }
}
