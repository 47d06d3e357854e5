// Moving a test server's clock forward (lib/shared/clock.ts, through the control port that
// test/support/clock-control.mjs opens in it), so a test starts a fresh rate-limit window or ages a
// cache at once, instead of waiting for the wall clock.
import { inject } from 'vitest';
import { WINDOW_MS } from '../../lib/shared/window';

export type ServerClock = {
  /** Moves the server's clock forward by `ms`; answers its offset from the wall clock. */
  advance(ms: number): Promise<number>;
  /** Holds the server's clock at its current time (`stop`), or lets it run on from there (`on`). */
  run(state: 'stop' | 'on'): Promise<void>;
};

export function clockAt(port: number): ServerClock {
  const call = async (query: string) => {
    const response = await fetch(`http://127.0.0.1:${port}/?${query}`);
    if (!response.ok) throw new Error(`the test clock refused: ${await response.text()}`);
    return (await response.json()) as { offsetMs: number };
  };
  return {
    advance: async (ms) => (await call(`advance=${ms}`)).offsetMs,
    run: async (state) => void (await call(`run=${state}`)),
  };
}

/**
 * Runs `work` with every one of `clocks` standing still, for a burst whose outcome depends on how
 * long it takes by the server's clock (a throttle's wait after the fifth attempt): however slowly
 * the machine serves it, no time passes for the server. The clocks run on afterwards.
 */
export async function withClocksStopped<T>(clocks: ServerClock[], work: () => Promise<T>): Promise<T> {
  await Promise.all(clocks.map((clock) => clock.run('stop')));
  try {
    return await work();
  } finally {
    await Promise.all(clocks.map((clock) => clock.run('on')));
  }
}

/**
 * What a server promises to see within `ms` of a change it did not make (another instance's, or
 * the database's own): its caches of database reads live less than that, by its clock. With
 * `clocks` held still, `change` runs; each clock is then moved on by `ms`, and `check` runs on
 * servers for which `ms` has passed since the change and no time since. However slowly the machine
 * serves the requests, the outcome is the same: a cache that lived longer fails it, a slow machine
 * cannot.
 */
export async function seenWithin<T>(clocks: ServerClock[], ms: number, change: () => Promise<T>, check: (changed: T) => Promise<void>): Promise<void> {
  await withClocksStopped(clocks, async () => {
    const changed = await change();
    await Promise.all(clocks.map((clock) => clock.advance(ms)));
    await check(changed);
  });
}

/** The clock of the project's shared server (test/support/global-setup.ts). */
export function sharedServerClock(): ServerClock {
  return clockAt(inject('clockPort'));
}

/**
 * Moves every one of `clocks` to the same time, just after the start of a one-minute window (the
 * rate limits' windows), so what a test sends next counts in one fresh window on each server.
 */
export async function startOfWindow(...clocks: ServerClock[]): Promise<void> {
  const offsets = await Promise.all(clocks.map((clock) => clock.advance(0)));
  const latest = Math.max(...offsets);
  const target = latest + (WINDOW_MS - ((Date.now() + latest) % WINDOW_MS)) + 20;
  await Promise.all(clocks.map((clock, index) => clock.advance(target - offsets[index])));
}

/**
 * Unless `clocks` are more than `marginMs` from the end of their window, moves them all to the
 * start of the next: what is sent next is counted in one window on every server.
 */
export async function awayFromWindowEnd(marginMs: number, ...clocks: ServerClock[]): Promise<void> {
  const latest = Math.max(...(await Promise.all(clocks.map((clock) => clock.advance(0)))));
  if ((Date.now() + latest) % WINDOW_MS > WINDOW_MS - marginMs) await startOfWindow(...clocks);
}
