// The loop the webhook dispatcher and the mail sender run on (lib/poll-loop.ts), with real timers:
// a wake runs a pass at once, a wake during a pass runs one more right after it and never two at
// once, a pass that says more is waiting is followed by another, a failed pass is tried again,
// and an idle loop looks again on its own, sooner when the next piece of work is due sooner.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pollLoop, type PollWork } from '../../lib/poll-loop';

/** Until `condition` holds (expect.poll, at a short interval: passes follow within milliseconds). */
const until = (condition: () => boolean, timeout = 3000) => expect.poll(condition, { timeout, interval: 5 }).toBe(true);

/** A loop of its own, with passes counted; `pass` decides what each does. */
function counted(pass: (count: number) => Promise<boolean> | boolean, nextDueAt: PollWork['nextDueAt'] = async () => null) {
  const loop = pollLoop(`test-${randomUUID()}`);
  const seen = { passes: 0, running: 0, mostAtOnce: 0 };
  const work: PollWork = {
    async pass() {
      seen.passes++;
      seen.running++;
      seen.mostAtOnce = Math.max(seen.mostAtOnce, seen.running);
      try {
        return await pass(seen.passes);
      } finally {
        seen.running--;
      }
    },
    nextDueAt,
    failure: 'test loop failed',
  };
  return { loop, work, seen };
}

describe('a poll loop', () => {
  it('wakes no one before it starts, then runs a pass as it starts and on each wake', async () => {
    const { loop, work, seen } = counted(() => false);
    expect(loop.wake()).toBe(false);
    loop.start(work);
    await until(() => seen.passes === 1);
    expect(loop.wake()).toBe(true);
    await until(() => seen.passes === 2);
    // Starting again changes nothing.
    loop.start(work);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.passes).toBe(2);
  });

  it('runs one more pass after a wake that came during a pass, never two at once', async () => {
    let release = () => {};
    const { loop, work, seen } = counted((count) => (count === 1 ? new Promise<boolean>((resolve) => (release = () => resolve(false))) : false));
    loop.start(work);
    await until(() => seen.passes === 1);
    loop.wake();
    loop.wake();
    release();
    await until(() => seen.passes === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(seen.passes).toBe(2);
    expect(seen.mostAtOnce).toBe(1);
  });

  it('follows a pass that says more is waiting with another, until none does', async () => {
    const { loop, work, seen } = counted((count) => count < 5);
    loop.start(work);
    await until(() => seen.passes === 5);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen.passes).toBe(5);
  });

  it('tries a failed pass again a second later, and looks again on its own when idle', async () => {
    const started = Date.now();
    const times: number[] = [];
    const { loop, work } = counted(() => {
      times.push(Date.now() - started);
      if (times.length === 1) throw new Error('the store is away');
      return false;
    });
    loop.start(work);
    await until(() => times.length === 3, 4000);
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(900);
    expect(times[2] - times[1]).toBeGreaterThanOrEqual(900);
  });

  it('looks again as soon as the next piece of work falls due, when that is within the second', async () => {
    const started = Date.now();
    const times: number[] = [];
    const { loop, work } = counted(
      () => {
        times.push(Date.now() - started);
        return false;
      },
      async () => new Date(Date.now() + 100),
    );
    loop.start(work);
    await until(() => times.length === 3);
    expect(times[2] - times[1]).toBeLessThan(600);
  });
});
