// POST /plants/batch: many NewPlants in one request, each decided as POST /plants would decide it,
// in order, so an id that comes twice is settled by the first (see docs/api.md: the second is a
// retry when its content is the same, a conflict when not).
import 'server-only';
import * as z from 'zod/mini';
import { ApiError, ERROR_CATALOGUE } from '../errors';
import { describeJson } from '../shared/json';
import { describeIssues } from '../shared/validation';
import type { BatchItemResult } from '../schemas/batch';
import { NewPlant } from '../schemas/plant';
import type { ChangeContext } from '../audit/context';
import { slots } from '../slots';
import { recordedChange, settleCreate } from './service';
import { engine } from '../db/engine';
import type { InsertOutcome } from '../db/stores';
import { chunkOrders, signal } from './chunk-orders';

// Chunks stored at once in this process, whatever the number of batches in flight: as many as the
// engine lets overlap (PlantStore.chunksAtOnce: one on SQLite, two on PostgreSQL). A chunk is CPU
// work for the database (its indexes, its audit records and events) and holds a connection; ten
// parallel batches writing ten chunks at once left /api/health waiting over a second on
// PostgreSQL for CPU and for a pooled connection. Bounded, chunks of parallel batches take turns
// in order, and the total rate stays what the CPU allows.
const chunkSlots = slots('batch-chunks', () => engine().plants.chunksAtOnce);

const failure = (index: number, error: ApiError): BatchItemResult => ({
  index,
  status: error.status as 400 | 409,
  error: { error: error.code, message: error.message },
});

function invalid(index: number, message: string): BatchItemResult {
  const { code, status } = ERROR_CATALOGUE.validation_failed;
  return { index, status: status as 400, error: { error: code, message } };
}

/** Each item of a stored chunk gets its result, as POST /plants would answer it. */
function settleChunk(chunk: { index: number; plant: NewPlant }[], outcomes: InsertOutcome[], results: BatchItemResult[]): void {
  chunk.forEach(({ index, plant }, position) => {
    try {
      const { plant: stored, created } = settleCreate(plant, outcomes[position]);
      results[index] = { index, status: 200, created, plant: stored };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results[index] = failure(index, error);
    }
  });
}

/** Creates each item in order; resolves to one result per item, in the order of `items`. */
export async function createPlants(items: readonly unknown[], context: ChangeContext): Promise<BatchItemResult[]> {
  const results: BatchItemResult[] = new Array(items.length);
  const valid: { index: number; plant: NewPlant }[] = [];
  items.forEach((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      results[index] = invalid(index, `Item must be a JSON object, not ${describeJson(item)}`);
      return;
    }
    const parsed = z.safeParse(NewPlant, item);
    if (parsed.success) valid.push({ index, plant: parsed.data });
    else results[index] = invalid(index, describeIssues(parsed.error.issues));
  });

  const store = engine().plants;
  // Where chunks overlap, a chunk opens its transaction while those before it still work, and its
  // order (chunk-orders.ts) keeps the plants stored, and taken ids decided, as in the items' order;
  // a chunk that fails undoes the chunks after it.
  const orders = store.chunksAtOnce > 1 ? chunkOrders() : undefined;
  // Each chunk settles its items' results once committed; the batch waits for them all.
  const stored: Promise<void>[] = [];
  let failed = false;
  // Items per transaction: one commit for a chunk instead of one per plant, and the engine's chunk
  // size keeps each transaction, which holds SQLite's write lock, short.
  const { chunkSize } = store;
  for (let start = 0; start < valid.length && !failed; start += chunkSize) {
    // Lets other requests in between chunks: SQLite's statements run on the event loop.
    if (start > 0 && !orders) await new Promise((resolve) => setImmediate(resolve));
    const chunk = valid.slice(start, start + chunkSize);
    const plants = chunk.map(({ plant }) => ({ id: plant.id, name: plant.name, tag: plant.tag ?? null }));
    const ordered = orders?.next(plants.map(({ id }) => id));
    const started = signal();
    // Each plant the chunk stores gets its audit record and its event, in the chunk's transaction.
    const settled = chunkSlots
      .run(() => {
        started.fire();
        return recordedChange(context, (record) => store.insertMany(plants, record, ordered?.order));
      })
      .then((outcomes) => settleChunk(chunk, outcomes, results));
    stored.push(settled);
    ordered?.follow(settled);
    // Its failure is the batch's (below); the chunks after it are not started.
    const ended = settled.then(
      () => undefined,
      () => (failed = true),
    );
    // Where chunks overlap, the next one queues for a slot once this one has its own, so that the
    // chunks of parallel batches still take turns; else once this one has committed.
    await (orders ? Promise.race([started.reached, ended]) : ended);
  }
  // Answered once every chunk has committed or been undone; a failure is the first chunk's.
  const firstFailure = (await Promise.allSettled(stored)).find((outcome) => outcome.status === 'rejected');
  if (firstFailure) throw firstFailure.reason;
  return results;
}
