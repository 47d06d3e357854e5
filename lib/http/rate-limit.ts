// Requests per caller per minute (RATE_LIMIT_PER_MINUTE), in fixed one-minute windows, counted by
// the engine (the RateCounter of lib/db/stores.ts): in the database on PostgreSQL, so every instance
// draws on the same allowance; in this process's memory on SQLite, which one process serves.
import 'server-only';
import { engine } from '../db/engine';
import { ApiError } from '../errors';
import { settings } from '../settings';
import { now as clockNow } from '../shared/clock';

const WINDOW_MS = 60_000;

export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/**
 * Counts one request for `key`; throws the 429 ApiError (with Retry-After) when it is over the
 * limit. Returns the state for the RateLimit-* headers, or null when limiting is off.
 */
export async function consumeRateLimit(key: string, now = clockNow()): Promise<RateLimitState | null> {
  const limit = settings().RATE_LIMIT_PER_MINUTE;
  if (limit === 0) return null;
  const windowStart = now - (now % WINDOW_MS);
  const counted = engine().rateCounter.count(key, windowStart);
  // In memory the count is there at once: no await, on the path every API request takes.
  const count = typeof counted === 'number' ? counted : await counted;
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
