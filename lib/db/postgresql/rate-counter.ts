// Requests per caller on PostgreSQL (the RateCounter of lib/db/stores.ts): the count lives in the
// database, one row per caller, so every instance draws on the same allowance. Raw SQL because the
// count is one atomic upsert that either counts on in its window or restarts a newer one, which
// Prisma's query API cannot say. The requests that reach this process while no count of its is on
// its way to the database are counted together, one statement for all their callers: a caller's k
// requests add k to its row in one step, and the count the statement answers, C, gives them
// C - k + 1 ... C in the order they came. So deciding and counting stay one atomic step per request,
// exact across instances. One statement at a time, on a connection of its own whose commits do not
// wait for the disk (prisma-client.ts, postgresqlCountsPool): every request of a process counts on
// the same row, and with a statement per turn on the pool's connections, each waited on the row's
// lock for the flush of the one before it, so the counts ran at the disk's pace
// (docs/performance.md, PostgreSQL: one server and two).
import 'server-only';
import { directCounts } from './direct';
import { processWide } from '../../process-wide';
import type { RateCounter } from '../stores';

// GREATEST keeps an instance whose clock lags from rolling the window back.
const COUNT = `INSERT INTO "RateLimitWindow" ("key", "windowStart", "count")
  SELECT * FROM unnest($1::text[], $2::text[]::bigint[], $3::int[])
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN EXCLUDED."windowStart" > "RateLimitWindow"."windowStart" THEN EXCLUDED."count" ELSE "RateLimitWindow"."count" + EXCLUDED."count" END,
    "windowStart" = GREATEST("RateLimitWindow"."windowStart", EXCLUDED."windowStart")
  RETURNING "key", "count"`;

type Waiting = { key: string; windowStart: number; resolve(count: number): void; reject(error: unknown): void };

async function countWaiting(waiting: Waiting[]): Promise<void> {
  // Each caller's requests, in the order they came; counted in the newest window any of them is in
  // (a turn that straddles a minute's end counts its few requests in the new minute).
  const byKey = new Map<string, Waiting[]>();
  for (const request of waiting) {
    const requests = byKey.get(request.key);
    if (requests) requests.push(request);
    else byKey.set(request.key, [request]);
  }
  const keys = [...byKey.keys()];
  try {
    const rows = await directCounts.$queryRawUnsafe<{ key: string; count: number }[]>(
      COUNT,
      keys,
      keys.map((key) => String(Math.max(...byKey.get(key)!.map((request) => request.windowStart)))),
      keys.map((key) => byKey.get(key)!.length),
    );
    for (const { key, count } of rows) {
      const requests = byKey.get(key)!;
      requests.forEach((request, index) => request.resolve(Number(count) - requests.length + 1 + index));
    }
  } catch (error) {
    for (const request of waiting) request.reject(error);
  }
}

const counts = processWide('postgresql-rate-count-queue', () => ({ queue: [] as Waiting[], sending: false }));

/**
 * Sends what waits, in one statement, and then what came meanwhile, until nothing waits. The first
 * request after a pause waits for the end of its turn, so the requests of that turn go with it.
 */
async function send(): Promise<void> {
  while (counts.queue.length > 0) await countWaiting(counts.queue.splice(0));
  counts.sending = false;
}

export const postgresqlRateCounter: RateCounter = {
  count(key, windowStart) {
    return new Promise((resolve, reject) => {
      counts.queue.push({ key, windowStart, resolve, reject });
      if (counts.sending) return;
      counts.sending = true;
      setImmediate(() => void send());
    });
  },
};
