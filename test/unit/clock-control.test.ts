// The test servers' clock is moved through test/support/clock-control.mjs, which computes the time
// itself: a module preloaded into plain Node cannot import lib/shared/clock.ts, which the server's
// code reads. Here both run in this one process on the one clock state they share (processWide's
// "clock"), the control module driven over its port as the tests drive a server's, and at every step
// lib/shared/clock.ts must read the time the control module answers.
import { afterAll, expect, test } from 'vitest';
import { processWide } from '../../lib/process-wide';
import { advanceClock, now, type Clock } from '../../lib/shared/clock';
import { clockAt } from '../support/clock';

const state = processWide<Clock>('clock', () => ({ offsetMs: 0 }));

afterAll(() => {
  // The other unit files in this process read the wall clock.
  state.offsetMs = 0;
  delete state.stoppedAt;
});

/** Loads the control module, catching the port it prints on its first line. */
async function controlPort(): Promise<number> {
  const write = process.stdout.write;
  let printed = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    await import('../support/clock-control.mjs');
    for (const deadline = Date.now() + 5_000; !/control port \d+/.test(printed); ) {
      if (Date.now() > deadline) throw new Error('the control module printed no port');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    process.stdout.write = write;
  }
  return Number(/control port (\d+)/.exec(printed)![1]);
}

test('the control module and lib/shared/clock.ts read one time: stopped, moved, moved in-process, and running on', async () => {
  const port = await controlPort();
  const asked = async (query: string) => (await (await fetch(`http://127.0.0.1:${port}/?${query}`)).json()) as { now: number; offsetMs: number };

  const stopped = await asked('run=stop');
  expect(now()).toBe(stopped.now);

  const moved = await asked('advance=60000');
  expect(moved.now).toBe(stopped.now + 60_000);
  expect(now()).toBe(moved.now);

  advanceClock(1_500);
  expect((await asked('advance=0')).now).toBe(moved.now + 1_500);
  expect(now()).toBe(moved.now + 1_500);

  // Running on, both count from where the clock stood, a minute and a half ahead of the wall clock.
  await clockAt(port).run('on');
  const running = await asked('advance=0');
  const mine = now();
  expect(mine).toBeGreaterThanOrEqual(running.now);
  expect(mine - running.now).toBeLessThan(1_000);
  expect(running.offsetMs).toBeGreaterThan(61_000);
  expect(Math.abs(running.now - Date.now() - running.offsetMs)).toBeLessThan(1_000);

  // Only forward.
  expect((await fetch(`http://127.0.0.1:${port}/?advance=-1`)).status).toBe(400);
});
