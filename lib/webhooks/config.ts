// The webhooks' settings as the dispatcher uses them: WEBHOOK_RETRY_SCHEDULE and WEBHOOK_SECRET_GRACE
// (lib/settings reads and checks each), and the fixed limits of an attempt.
import 'server-only';
import { settings } from '../settings';

/** An attempt succeeds only on a 2xx answer received within this time. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
/** Each retry's delay is randomly lengthened or shortened by up to this share, so retries spread out. */
export const RETRY_JITTER = 0.2;

/**
 * The delays before each retry, in ms (WEBHOOK_RETRY_SCHEDULE: `5s,5m,2h`; units ms, s, m, h, d).
 * After the last one fails, the delivery is marked failed. Empty (`none`): no retries.
 */
export function retrySchedule(): number[] {
  return settings().WEBHOOK_RETRY_SCHEDULE;
}

/**
 * How long, in ms, an endpoint's secret still signs its deliveries (beside the new one) once it has
 * been rotated out: WEBHOOK_SECRET_GRACE, a duration (`24h`, `2d`; `0s` for not at all).
 */
export function secretGraceMs(): number {
  return settings().WEBHOOK_SECRET_GRACE.ms;
}

/** A retry's delay with jitter: within ±RETRY_JITTER of the scheduled one. */
export function withJitter(delayMs: number, random = Math.random()): number {
  return Math.round(delayMs * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random));
}
