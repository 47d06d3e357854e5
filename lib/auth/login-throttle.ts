// Slows down password guessing. Failures are counted per email in the database, so every
// instance sees the same count. The first five failures cost nothing extra; after that each
// attempt must wait twice as long as the last (5 s, 10 s, ... up to a minute), so a guesser gets
// about one try a minute while a person who mistypes is barely slowed. Keyed by email, not address:
// rotating addresses does not help a guesser, and the worst a stranger can do to an account is
// delay its sign-in, never lock it.
import { db } from '../db/client';

const FREE_FAILURES = 5;
const WINDOW_MS = 15 * 60 * 1000;
const FIRST_DELAY_MS = 5 * 1000;
const MAX_DELAY_MS = 60 * 1000;

const keyOf = (email: string) => email.trim().toLowerCase();

/** Seconds until `email` may try again, or 0 when it may try now. */
export async function loginRetryAfterSeconds(email: string, now = Date.now()): Promise<number> {
  const row = await db().loginThrottle.findUnique({ where: { key: keyOf(email) } });
  if (!row || now - row.firstFailAt.getTime() > WINDOW_MS || row.failures < FREE_FAILURES) return 0;
  const delay = Math.min(FIRST_DELAY_MS * 2 ** (row.failures - FREE_FAILURES), MAX_DELAY_MS);
  return Math.max(0, Math.ceil((row.lastFailAt.getTime() + delay - now) / 1000));
}

export async function recordLoginFailure(email: string, now = new Date()): Promise<void> {
  const key = keyOf(email);
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  await db().$transaction([
    // A count from an older window starts over.
    db().loginThrottle.deleteMany({ where: { key, firstFailAt: { lt: windowStart } } }),
    db().loginThrottle.upsert({
      where: { key },
      create: { key, failures: 1, firstFailAt: now, lastFailAt: now },
      update: { failures: { increment: 1 }, lastFailAt: now },
    }),
  ]);
}

export async function clearLoginFailures(email: string): Promise<void> {
  await db().loginThrottle.deleteMany({ where: { key: keyOf(email) } });
}
