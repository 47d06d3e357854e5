// Requests per caller on PostgreSQL (the RateCounter of lib/db/stores.ts): the count lives in the
// database, one row per caller, so every instance draws on the same allowance. Raw SQL because the
// count is one atomic upsert that either counts on in its window or restarts a newer one, which
// Prisma's query API cannot say. The requests that reach this process in one turn of the event
// loop are counted together, one statement for all their callers: a caller's k requests add k to
// its row in one step, and the count the statement answers, C, gives them C - k + 1 ... C in the
// order they came. So deciding and counting stay one atomic step per request, exact across
// instances, and a burst costs a round trip per turn instead of one per request
// (docs/performance.md, PostgreSQL: one server and two).
import 'server-only';
import { direct } from './direct';
import { processWide } from '../../process-wide';
import { perTurn } from '../groups';
import type { RateCounter } from '../stores';

// GREATEST keeps an instance whose clock lags from rolling the window back.
const COUNT = `INSERT INTO "RateLimitWindow" ("key", "windowStart", "count")
  SELECT * FROM unnest($1::text[], $2::text[]::bigint[], $3::int[])
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN EXCLUDED."windowStart" > "RateLimitWindow"."windowStart" THEN EXCLUDED."count" ELSE "RateLimitWindow"."count" + EXCLUDED."count" END,
    "windowStart" = GREATEST("RateLimitWindow"."windowStart", EXCLUDED."windowStart")
  RETURNING "key", "count"`;

type Waiting = { key: string; windowStart: number; resolve(count: number): void; reject(error: unknown): void };

async function countWaiting(queue: Waiting[]): Promise<void> {
  const waiting = queue.splice(0);
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
    const rows = await direct.$queryRawUnsafe<{ key: string; count: number }[]>(
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

const countInTurn = processWide('postgresql-rate-counts', () => perTurn(countWaiting));

export const postgresqlRateCounter: RateCounter = {
  count(key, windowStart) {
    return new Promise((resolve, reject) => countInTurn({ key, windowStart, resolve, reject }));
  },
};
