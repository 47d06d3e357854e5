// Slows down password guessing. Attempts are counted per email in the database, so every
// instance sees the same count. The first five in 15 minutes cost nothing extra; after that each
// must come twice as long after the last as the one before (5 s, 10 s, ... up to a minute), so a
// guesser gets about one try a minute while a person who mistypes is barely slowed. Keyed by
// email, not address: rotating addresses does not help a guesser, and the worst a stranger can do
// to an account is delay its sign-in, never lock it.
//
// An attempt is claimed before its password is checked, by one statement that counts it and
// decides whether it may run. With a check before the password and a count after it, parallel
// attempts all passed the check while the first were still hashing (100 at once ran 63 checks).
import 'server-only';
import { engine } from '../../db/engine';
import { log } from '../../log';
import { processWide } from '../../process-wide';
import { now as clockNow } from '../../shared/clock';

const FREE_ATTEMPTS = 5;
const WINDOW_MS = 15 * 60 * 1000;
const FIRST_DELAY_MS = 5 * 1000;
const MAX_DELAY_MS = 60 * 1000;
// Rows of windows that have passed are deleted at most this often, by each process.
const PURGE_INTERVAL_MS = 60 * 1000;

const keyOf = (email: string) => email.trim().toLowerCase();

/** How long the next attempt must wait after the last, once `attempts` have been made. */
function delayAfter(attempts: number): number {
  return attempts < FREE_ATTEMPTS ? 0 : Math.min(FIRST_DELAY_MS * 2 ** (attempts - FREE_ATTEMPTS), MAX_DELAY_MS);
}

// delayAfter() as the list the store's claim decides with (the wait after 0, 1, ... attempts, up to
// the longest), so the database decides with the row as it holds it.
const DELAYS_MS: readonly number[] = (() => {
  const delays = [delayAfter(0)];
  while (delays[delays.length - 1] < MAX_DELAY_MS) delays.push(delayAfter(delays.length));
  return delays;
})();

export type LoginClaim = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Claims one sign-in attempt for `email`, before its password is checked: allowed (and counted),
 * or refused with the seconds to wait.
 */
export async function claimLoginAttempt(email: string, now = clockNow()): Promise<LoginClaim> {
  const key = keyOf(email);
  const claimed = await engine().loginThrottle.claim(key, now, now - WINDOW_MS, DELAYS_MS);
  purgeExpiredNowAndThen(now);
  if (claimed) return { allowed: true };
  // Only to tell the person how long to wait; the decision is already made.
  const row = await engine().loginThrottle.read(key);
  const waitMs = row ? row.lastAttemptAt + delayAfter(row.attempts) - now : 0;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** After a success: the count starts over. */
export async function clearLoginAttempts(email: string): Promise<void> {
  await engine().loginThrottle.clear(keyOf(email));
}

const purge = processWide('login-throttle-purge', () => ({ lastAt: 0 }));

// Every email ever tried would otherwise stay a row, and the file would grow with every one tried.
function purgeExpiredNowAndThen(now: number): void {
  if (now - purge.lastAt < PURGE_INTERVAL_MS) return;
  purge.lastAt = now;
  engine().loginThrottle.purge(now - WINDOW_MS).catch((error: unknown) =>
    log.warn('could not purge expired sign-in throttle rows', { error: error instanceof Error ? error.message : String(error) }),
  );
}
