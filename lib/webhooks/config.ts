// The webhooks' settings: WEBHOOK_RETRY_SCHEDULE and the fixed limits of an attempt, and
// WEBHOOK_SECRET_GRACE.
import 'server-only';
import { parseDuration } from '../shared/duration';

export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';
export const DEFAULT_SECRET_GRACE = '24h';
/** An attempt succeeds only on a 2xx answer received within this time. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Each retry's delay is randomly lengthened or shortened by up to this share, so retries spread out. */
export const RETRY_JITTER = 0.2;

/**
 * The delays before each retry, in ms, from a comma-separated list of durations (`5s,5m,2h`;
 * units ms, s, m, h, d). After the last one fails, the delivery is marked failed. An empty
 * list (`WEBHOOK_RETRY_SCHEDULE=none`) means no retries.
 */
export function retrySchedule(text = process.env.WEBHOOK_RETRY_SCHEDULE?.trim() || DEFAULT_RETRY_SCHEDULE): number[] {
  if (text === 'none') return [];
  return text.split(',').map((part) => {
    const delayMs = parseDuration(part);
    if (delayMs === null) {
      throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated durations such as 5s,5m,30m,2h (units ms, s, m, h, d), got "${part.trim()}"`);
    }
    return delayMs;
  });
}

/**
 * How long, in ms, an endpoint's secret still signs its deliveries (beside the new one) once it has
 * been rotated out: WEBHOOK_SECRET_GRACE, a duration (`24h`, `2d`; `0s` for not at all).
 */
export function secretGraceMs(text = process.env.WEBHOOK_SECRET_GRACE?.trim() || DEFAULT_SECRET_GRACE): number {
  const graceMs = parseDuration(text);
  if (graceMs === null) {
    throw new Error(`WEBHOOK_SECRET_GRACE must be a duration such as 24h, 2d or 30m (units ms, s, m, h, d; 0s for none), got "${text}"`);
  }
  return graceMs;
}

/** A retry's delay with jitter: within ±RETRY_JITTER of the scheduled one. */
export function withJitter(delayMs: number, random = Math.random()): number {
  return Math.round(delayMs * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
}
