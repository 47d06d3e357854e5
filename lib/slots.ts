// A counting semaphore, once per process: at most `size` works run at once, the rest wait their
// turn in order. It bounds costly work that many requests can start together (password hashes,
// batch chunks), so the rest of the server keeps a share of the CPU, the thread pool and the
// database connections.
import 'server-only';
import { processWide } from './process-wide';

export class NoSlotError extends Error {}

export type Slots = {
  /**
   * Runs `work` in a slot: at once if one is free, else after those ahead of it. With `maxWaiting`,
   * throws NoSlotError at once instead of joining a queue that long.
   */
  run<T>(work: () => Promise<T>, options?: { maxWaiting?: number }): Promise<T>;
  inUse(): { running: number; waiting: number };
};

export function slots(name: string, size: () => number): Slots {
  const state = processWide(`slots:${name}`, () => ({ running: 0, waiting: [] as (() => void)[] }));
  return {
    async run(work, { maxWaiting = Infinity } = {}) {
      if (state.running < size()) state.running++;
      else if (state.waiting.length < maxWaiting) await new Promise<void>((resolve) => state.waiting.push(resolve));
      else throw new NoSlotError(`no free slot for ${name}`);
      try {
        return await work();
      } finally {
        // The slot passes straight to the next in the queue, so it never looks free in between.
        const next = state.waiting.shift();
        if (next) next();
        else state.running--;
      }
    },
    inUse: () => ({ running: state.running, waiting: state.waiting.length }),
  };
}
