// Work that arrives in one turn of the event loop, handled together: SQLite's group commits
// (lib/db/sqlite/connection.ts), and on PostgreSQL the creates stored together
// (lib/db/inserts-together.ts) and the rate-limit counts of a turn (lib/db/postgresql/rate-counter.ts).

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

/**
 * A queue emptied once a turn of the event loop: what `add` queues in a turn is handed to `onTurn`
 * at its end, which takes out of the queue what it handles now; whatever it leaves waits for the
 * next turn. Answers `add`.
 */
export function perTurn<T>(onTurn: (queue: T[]) => unknown): (item: T) => void {
  const queue: T[] = [];
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void onTurn(queue);
      if (queue.length > 0) schedule();
    });
  };
  return (item) => {
    queue.push(item);
    schedule();
  };
}
