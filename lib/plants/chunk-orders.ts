// The ChunkOrders of one batch's chunks (ChunkOrder in lib/db/stores.ts), made one after another as
// the batch hands out its chunks: each chunk takes its places after the chunk before has taken its
// own, inserts after any earlier chunk that has one of its ids, and commits after the chunk before.
import 'server-only';
import type { ChunkOrder } from '../db/stores';

const ignore = () => {};

/** A promise that resolves when `fire` is called: one of the moments a chunk reaches. */
export function signal(): { reached: Promise<void>; fire(): void } {
  let fire = ignore;
  const reached = new Promise<void>((resolve) => (fire = resolve));
  return { reached, fire };
}

export type ChunkOrders = {
  /**
   * The order of the next chunk, of plants with `ids`. `follow` is given the chunk's work once it is
   * under way, which resolves once the chunk has committed and rejects if it failed: the chunks
   * after it then fail too, rather than wait for signals that will never come.
   */
  next(ids: readonly bigint[]): { order: ChunkOrder; follow(work: Promise<unknown>): void };
};

export function chunkOrders(): ChunkOrders {
  let earlierPlaced: Promise<unknown> = Promise.resolve();
  let earlierCommitted: Promise<unknown> = Promise.resolve();
  // The last chunk to insert each id so far: when it has.
  const insertedWith = new Map<bigint, Promise<unknown>>();
  return {
    next(ids) {
      const placed = signal();
      const inserted = signal();
      const shared = new Set(ids.flatMap((id) => insertedWith.get(id) ?? []));
      const after = Promise.all([earlierPlaced, ...shared]);
      // An earlier chunk may fail while this one still waits for its turn, before anything awaits
      // `after`: the chunk fails when it does (its work reports it), not the process now.
      after.catch(ignore);
      const order: ChunkOrder = { after, placed: placed.fire, inserted: inserted.fire, earlierCommitted };
      return {
        order,
        follow(work) {
          earlierPlaced = Promise.race([placed.reached, work]);
          earlierCommitted = work;
          const chunkInserted = Promise.race([inserted.reached, work]);
          // Rejected only when the chunk failed, which its own work reports.
          for (const promise of [earlierPlaced, chunkInserted]) promise.catch(ignore);
          for (const id of ids) insertedWith.set(id, chunkInserted);
        },
      };
    },
  };
}
