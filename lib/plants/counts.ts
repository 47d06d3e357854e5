// Counts of what a filter matches (X-Total-Count, the catalogue's "1–20 of 3,412"), kept in this
// process for as long as the plants stay as they were. Counting a search reads every plant it
// matches, or every plant when the text is one character (on SQLite, two as well; the slowest on
// 100,000 plants is one that matches nearly every plant:
// docs/performance.md#the-catalogue-on-100000-plants), and a staff member paging through a filter,
// or a client polling one, asks for the same count again and again. Each count is kept with the
// store's stamp (PlantStore.countStamp), read before it was counted; it is given again only while
// the stamp is the same, i.e. while no change to the plants, by any instance or the CLI, has become
// visible. A count is never older than the request that reads it.
import 'server-only';
import { engine } from '../db/engine';
import type { PlantFilterValues, PlantOrder, PlantPosition } from '../db/stores';
import { countCacheLookup } from '../metrics/registry';
import { processWide } from '../process-wide';
import { inSpan } from '../tracing/spans';

export type CountQuery = PlantFilterValues & { order?: PlantOrder; after?: PlantPosition };

type Kept = { stamp: string; count: Promise<number> };

// A few hundred bytes an entry (the key is the filter, its text at most the search's limit); the
// oldest used goes first.
const MAX_ENTRIES = 1000;
const kept = processWide('plant-counts', () => new Map<string, Kept>());

const keyOf = (query: CountQuery) => JSON.stringify([query.folded ?? null, query.tag ?? null, query.order ?? null, query.after ?? null], (_, value) => (typeof value === 'bigint' ? value.toString() : value));

/**
 * How many plants `query` matches, as the plants stand now. In a span "plants.count kept" whose
 * `plant_store.count.kept` says whether the count was kept from before (the store's own spans,
 * plants.countStamp and, when it was not, plants.count, are its children).
 */
export function countMatching(query: CountQuery): Promise<number> {
  return inSpan('plants.count kept', { onlyInTrace: true }, (span) =>
    keptOrCounted(query, (wasKept) => {
      span?.setAttribute('plant_store.count.kept', wasKept);
      countCacheLookup(wasKept ? 'hit' : 'miss');
    }),
  );
}

// The requests of one turn of the event loop share one read of the stamp: it is read after each of
// them arrived, so it is as fresh as each needs (on PostgreSQL a round trip fewer for all but one).
const turn = processWide('plant-count-stamp-of-turn', () => ({ stamp: undefined as Promise<string> | undefined }));

function stampOfThisTurn(): Promise<string> {
  if (!turn.stamp) {
    turn.stamp = engine().plants.countStamp();
    setImmediate(() => (turn.stamp = undefined));
  }
  return turn.stamp;
}

async function keptOrCounted(query: CountQuery, found: (wasKept: boolean) => void): Promise<number> {
  const plants = engine().plants;
  const stamp = await stampOfThisTurn();
  const key = keyOf(query);
  const entry = kept.get(key);
  if (entry?.stamp === stamp) {
    found(true);
    // Most recently used last, so the oldest used is first to go.
    kept.delete(key);
    kept.set(key, entry);
    return entry.count;
  }
  found(false);
  // Concurrent callers with the same stamp share this count; a failed one is not kept.
  const counting: Kept = { stamp, count: plants.count(query) };
  kept.delete(key);
  if (kept.size >= MAX_ENTRIES) kept.delete(kept.keys().next().value!);
  kept.set(key, counting);
  counting.count.catch(() => kept.get(key) === counting && kept.delete(key));
  return counting.count;
}
