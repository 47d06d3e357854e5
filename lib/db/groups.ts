// Work that arrives in one turn of the event loop, taken in groups of bounded size: SQLite's group
// commits (lib/db/sqlite/connection.ts) and PostgreSQL's creates stored together
// (lib/db/inserts-together.ts).

/** Takes the first items out of `queue`: at least one, then as many as fit within `maxWeight`. */
export function takeGroup<T>(queue: T[], weightOf: (item: T) => number, maxWeight: number): T[] {
  let count = 0;
  let weight = 0;
  while (count < queue.length && (count === 0 || weight + weightOf(queue[count]) <= maxWeight)) {
    weight += weightOf(queue[count]);
    count++;
  }
  return queue.splice(0, count);
}
