// Requests per caller on PostgreSQL (the RateCounter of lib/db/stores.ts): the count lives in the
// database, one row per caller, so every instance draws on the same allowance. It runs on every API
// request, in one round trip: raw SQL because the count is one atomic upsert that either counts on
// in its window or restarts a newer one, which Prisma's query API cannot say (docs/performance.md,
// PostgreSQL: one server and two, has what a create costs with it).
import 'server-only';
import { db } from '../client';
import type { RateCounter } from '../stores';

export const postgresqlRateCounter: RateCounter = {
  // GREATEST keeps an instance whose clock lags from rolling the window back.
  async count(key, windowStart) {
    const rows = await db().$queryRaw<{ count: number }[]>`
      INSERT INTO "RateLimitWindow" ("key", "windowStart", "count") VALUES (${key}, ${BigInt(windowStart)}, 1)
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN EXCLUDED."windowStart" > "RateLimitWindow"."windowStart" THEN 1 ELSE "RateLimitWindow"."count" + 1 END,
        "windowStart" = GREATEST("RateLimitWindow"."windowStart", EXCLUDED."windowStart")
      RETURNING "count"`;
    return Number(rows[0].count);
  },
};
