// Requests per caller per minute (RATE_LIMIT_PER_MINUTE), in fixed one-minute windows.
// On PostgreSQL the count lives in the database, one row per caller, so every instance draws on
// the same allowance. On SQLite, which one process serves, it is kept in this process's memory.
import 'server-only';
import { db, dbEngine } from '../db/client';
import { processWide } from '../process-wide';
import { ApiError } from '../errors';
import { rateLimitPerMinute } from '../shared/rate-limit-config';

const WINDOW_MS = 60_000;
// Memory bound for the in-process counter: entries of past windows are dropped past this size.
const MAX_IN_MEMORY_KEYS = 10_000;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

const inMemory = processWide('rate-limit-counts', () => new Map<string, { windowStart: number; count: number }>());

function countInMemory(key: string, windowStart: number): number {
  const entry = inMemory.get(key);
  if (entry && entry.windowStart === windowStart) return ++entry.count;
  if (inMemory.size >= MAX_IN_MEMORY_KEYS) {
    for (const [staleKey, stale] of inMemory) if (stale.windowStart < windowStart) inMemory.delete(staleKey);
  }
  inMemory.set(key, { windowStart, count: 1 });
  return 1;
}

// One statement, atomic under concurrency: the row either counts on in its window or restarts a
// newer one. GREATEST keeps an instance whose clock lags from rolling the window back.
async function countInDatabase(key: string, windowStart: number): Promise<number> {
  const rows = await db().$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitWindow" ("key", "windowStart", "count") VALUES (${key}, ${BigInt(windowStart)}, 1)
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN EXCLUDED."windowStart" > "RateLimitWindow"."windowStart" THEN 1 ELSE "RateLimitWindow"."count" + 1 END,
      "windowStart" = GREATEST("RateLimitWindow"."windowStart", EXCLUDED."windowStart")
    RETURNING "count"`;
  return Number(rows[0].count);
}

/**
 * Counts one request for `key`; throws the 429 ApiError (with Retry-After) when it is over the
 * limit. Returns the state for the RateLimit-* headers, or null when limiting is off.
 */
export async function consumeRateLimit(key: string, now = Date.now()): Promise<RateLimitState | null> {
  const limit = rateLimitPerMinute();
  if (limit === 0) return null;
  const windowStart = now - (now % WINDOW_MS);
  const count = dbEngine() === 'postgresql' ? await countInDatabase(key, windowStart) : countInMemory(key, windowStart);
  const resetSeconds = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000));
  const state = { limit, remaining: Math.max(0, limit - count), resetSeconds };
  if (count > limit) {
    throw new ApiError('rate_limited', `Too many requests: this token may make ${limit} per minute; retry in ${resetSeconds} s`, {
      'Retry-After': String(resetSeconds),
      ...rateLimitHeaders(state),
    });
  }
  return state;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'RateLimit-Limit': String(state.limit),
    'RateLimit-Remaining': String(state.remaining),
    'RateLimit-Reset': String(state.resetSeconds),
  };
}
