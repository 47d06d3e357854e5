// The time that the rate-limit windows, the throttles, the short caches and the webhook
// dispatcher's schedule read: the wall clock, plus an offset that only tests move. A test moves it
// forward (in its own process, or in a test server through test/support/clock-control.mjs, a module
// the test preloads) to cross a minute's window or a cache's lifetime at once instead of waiting it
// out, or holds it still while a burst it times by the clock is under way. Nothing in production
// sets it: no setting, no route; time only runs forward.
import { processWide } from '../process-wide';

/** The process's clock: `offsetMs` is added to the wall clock; while `stoppedAt` is set, time stands there. */
export type Clock = { offsetMs: number; stoppedAt?: number };

const clock = processWide<Clock>('clock', () => ({ offsetMs: 0 }));

/** Milliseconds since the epoch, as Date.now(). */
export const now = (): number => clock.stoppedAt ?? Date.now() + clock.offsetMs;

/** The current time as a Date. */
export const currentDate = (): Date => new Date(now());

/** Moves this process's clock forward by `ms` (tests only). */
export function advanceClock(ms: number): void {
  if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
  if (clock.stoppedAt !== undefined) clock.stoppedAt += ms;
  clock.offsetMs += ms;
}
