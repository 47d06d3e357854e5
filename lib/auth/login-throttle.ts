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
import { db, dbEngine } from '../db/client';
import { prepared, whenNotBusy } from '../db/sqlite-connection';
import { log } from '../log';
import { processWide } from '../process-wide';

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

// delayAfter() in SQL, so the database decides with the row as it holds it.
const DELAY_SQL = (() => {
  const steps = [`WHEN "LoginThrottle"."attempts" < ${FREE_ATTEMPTS} THEN 0`];
  for (let attempts = FREE_ATTEMPTS; delayAfter(attempts) < MAX_DELAY_MS; attempts++) {
    steps.push(`WHEN "LoginThrottle"."attempts" = ${attempts} THEN ${delayAfter(attempts)}`);
  }
  return `CASE ${steps.join(' ')} ELSE ${MAX_DELAY_MS} END`;
})();

// The claim. A row whose window has passed starts over; otherwise the attempt counts only if it
// comes late enough after the last. One that does not changes nothing and returns no row. The same
// SQL runs on both engines; on PostgreSQL concurrent claims on one key queue on its row lock.
const CLAIM_SQL = `
  INSERT INTO "LoginThrottle" ("key", "attempts", "windowStart", "lastAttemptAt") VALUES (@key, 1, @now, @now)
  ON CONFLICT ("key") DO UPDATE SET
    "attempts" = CASE WHEN "LoginThrottle"."windowStart" <= @windowFloor THEN 1 ELSE "LoginThrottle"."attempts" + 1 END,
    "windowStart" = CASE WHEN "LoginThrottle"."windowStart" <= @windowFloor THEN @now ELSE "LoginThrottle"."windowStart" END,
    "lastAttemptAt" = @now
  WHERE "LoginThrottle"."windowStart" <= @windowFloor OR "LoginThrottle"."lastAttemptAt" + ${DELAY_SQL} <= @now
  RETURNING "attempts"`;
const READ_SQL = 'SELECT "attempts", "lastAttemptAt" FROM "LoginThrottle" WHERE "key" = @key';
const CLEAR_SQL = 'DELETE FROM "LoginThrottle" WHERE "key" = @key';
const PURGE_SQL = 'DELETE FROM "LoginThrottle" WHERE "windowStart" <= @windowFloor';

type Parameters = Record<string, string | bigint>;

/** Runs one statement: on SQLite on the API's own connection, never blocking the process while another holds the file. */
async function run<Row>(sql: string, parameters: Parameters): Promise<Row[]> {
  if (dbEngine() === 'postgresql') {
    // PostgreSQL numbers its parameters: @name becomes $1, $2, ... in order of first use.
    const names: string[] = [];
    const numbered = sql.replace(/@(\w+)/g, (_match, name: string) => {
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    });
    return db().$queryRawUnsafe<Row[]>(numbered, ...names.map((name) => parameters[name]));
  }
  const statement = prepared<[Parameters], Row>(sql);
  return whenNotBusy(() => (statement.reader ? statement.all(parameters) : (statement.run(parameters), [])));
}

export type LoginClaim = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Claims one sign-in attempt for `email`, before its password is checked: allowed (and counted),
 * or refused with the seconds to wait.
 */
export async function claimLoginAttempt(email: string, now = Date.now()): Promise<LoginClaim> {
  const key = keyOf(email);
  const windowFloor = BigInt(now - WINDOW_MS);
  const claimed = await run<{ attempts: unknown }>(CLAIM_SQL, { key, now: BigInt(now), windowFloor });
  purgeExpiredNowAndThen(now);
  if (claimed.length > 0) return { allowed: true };
  // Only to tell the person how long to wait; the decision is already made.
  const [row] = await run<{ attempts: unknown; lastAttemptAt: unknown }>(READ_SQL, { key });
  const waitMs = row ? Number(row.lastAttemptAt) + delayAfter(Number(row.attempts)) - now : 0;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** After a success: the count starts over. */
export async function clearLoginAttempts(email: string): Promise<void> {
  await run(CLEAR_SQL, { key: keyOf(email) });
}

const purge = processWide('login-throttle-purge', () => ({ lastAt: 0 }));

// Every email ever tried would otherwise stay a row (five 2 MB emails once grew the file by 21 MB).
function purgeExpiredNowAndThen(now: number): void {
  if (now - purge.lastAt < PURGE_INTERVAL_MS) return;
  purge.lastAt = now;
  run(PURGE_SQL, { windowFloor: BigInt(now - WINDOW_MS) }).catch((error: unknown) =>
    log.warn('could not purge expired sign-in throttle rows', { error: error instanceof Error ? error.message : String(error) }),
  );
}
