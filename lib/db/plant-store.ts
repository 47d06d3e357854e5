// The plant store's shared part: what both engines' plant stores are built from (plantStoreOf).
// An engine gives its statements (PlantStatements), synchronous on SQLite, where a change runs on the
// event loop (a small one in one call, a batch's in slices), and asynchronous on PostgreSQL; the steps
// around them are written once here: the one way plants change (changePlants), the update and delete
// skeletons, and the 503 when the database stays busy (answerBusy in lib/db/busy.ts).
import 'server-only';
import { answerBusy } from './busy';
import type { ChangeRecordStore, ChunkOrder, InsertOutcome, MaybePromise, PlantChange, PlantQuery, PlantRow, PlantStore, PlantValues, RecordChanges } from './stores';

/** An engine's plant statements, on its transaction handle `Transaction`. */
export type PlantStatements<Transaction> = {
  /** PlantStore.chunksAtOnce: more than 1 only where `transaction` may wait (PostgreSQL). */
  chunksAtOnce: number;
  /** PlantStore.chunkSize. */
  chunkSize: number;
  /**
   * Runs `work` in one transaction and resolves to what it returned once committed; a throw undoes
   * it. `weight` is about how many plants it writes (SQLite bounds its group commits by it, and runs
   * a heavier change as a long transaction, whose work may pause between rows).
   */
  transaction<T>(work: (tx: Transaction) => MaybePromise<T>, weight: number): Promise<T>;
  /** How the engine writes a change's audit records and events inside that transaction. */
  changeRecords: ChangeRecordStore<Transaction>;
  /**
   * Inserts in order, listing each plant made in `changed` (see PlantStore.insertMany); with
   * `places`, each plant made takes its own of them as its `seq`.
   */
  insertMany(tx: Transaction, plants: PlantValues[], changed: PlantChange[], places?: number[]): MaybePromise<InsertOutcome[]>;
  /**
   * `count` places in the storage order, ascending, each after every place taken before (a
   * ChunkOrder's), for a store whose chunks overlap.
   */
  reservePlaces?(tx: Transaction, count: number): Promise<number[]>;
  /** The plant with `id`, held for the rest of the transaction. */
  lockById(tx: Transaction, id: bigint): MaybePromise<PlantRow | null>;
  /** Stores a new name and tag (and the folded name) for the plant at `seq`; the row as stored. */
  update(tx: Transaction, seq: number, values: { name: string; tag: string | null }): MaybePromise<PlantRow>;
  delete(tx: Transaction, seq: number): MaybePromise<void>;
  findById(id: bigint): Promise<PlantRow | null>;
  list(query: PlantQuery): Promise<PlantRow[]>;
  count: PlantStore['count'];
  countStamp: PlantStore['countStamp'];
  stats: PlantStore['stats'];
  unfoldedCountChanges: PlantStore['unfoldedCountChanges'];
  maxId(): Promise<bigint | null>;
  /** The lowest free id from 1 up, or null when every positive id is taken. */
  lowestFreePositiveId(): Promise<bigint | null>;
};

const isThenable = <T>(value: MaybePromise<T>): value is Promise<T> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** `next(value)`: at once when `value` is already there (SQLite stays synchronous), else after it. */
function then<A, B>(value: MaybePromise<A>, next: (value: A) => MaybePromise<B>): MaybePromise<B> {
  return isThenable(value) ? value.then(next) : next(value);
}

export function plantStoreOf<Transaction>(statements: PlantStatements<Transaction>): PlantStore {
  const { changeRecords } = statements;

  /**
   * The one way plants change: `work` makes its changes inside one transaction and lists them in
   * `changed`. Their audit records and webhook events are written from that list here, before the
   * transaction commits, so a change and its records are stored together or not at all. With
   * `earlier`, the transaction waits for it before committing, and is undone if it rejects.
   */
  function changePlants<T>(
    record: RecordChanges,
    work: (tx: Transaction, changed: PlantChange[]) => MaybePromise<T>,
    { weight = 1, earlier }: { weight?: number; earlier?: Promise<unknown> } = {},
  ): Promise<T> {
    return answerBusy(
      statements.transaction((tx) => {
        const changed: PlantChange[] = [];
        const committable = (result: T) => (earlier ? earlier.then(() => result) : result);
        return then(work(tx, changed), (result) => {
          if (changed.length === 0) return committable(result);
          return then(changeRecords.eventsWanted(tx, changed.length), (events) => {
            const records = record(changed, { events });
            return then(changeRecords.write(tx, records), (kept) => {
              // Events the engine did not keep (no endpoint enabled, as its statement found) are
              // taken out of the records, so that nobody wakes the dispatcher for them.
              if (kept === 0) records.events.length = 0;
              return committable(result);
            });
          });
        });
      }, weight),
    );
  }

  return {
    chunksAtOnce: statements.chunksAtOnce,
    chunkSize: statements.chunkSize,
    insertMany(plants, record, order?: ChunkOrder) {
      if (!order) return changePlants(record, (tx, changed) => statements.insertMany(tx, plants, changed), { weight: plants.length });
      // Only a store whose chunks overlap (chunksAtOnce > 1) has places to reserve.
      const { reservePlaces } = statements;
      if (!reservePlaces) throw new Error('insertMany: this store runs one chunk at a time');
      const work = async (tx: Transaction, changed: PlantChange[]) => {
        await order.after;
        const places = await reservePlaces(tx, plants.length);
        order.placed();
        const outcomes = await statements.insertMany(tx, plants, changed, places);
        order.inserted();
        return outcomes;
      };
      return changePlants(record, work, { weight: plants.length, earlier: order.earlierCommitted });
    },
    update(id, change, record) {
      return changePlants(record, (tx, changed) =>
        then(statements.lockById(tx, id), (current) => {
          const next = change(current);
          if (!current) throw new Error('update: change() must refuse a missing plant');
          if (next.name === current.name && next.tag === current.tag) return current;
          return then(statements.update(tx, current.seq, next), (row) => {
            changed.push({ kind: 'updated', plant: row, previous: current });
            return row;
          });
        }),
      );
    },
    delete(id, check, record) {
      return changePlants(record, (tx, changed) =>
        then(statements.lockById(tx, id), (current) => {
          check(current);
          if (!current) throw new Error('delete: check() must refuse a missing plant');
          return then(statements.delete(tx, current.seq), () => {
            changed.push({ kind: 'deleted', previous: current });
            return current;
          });
        }),
      );
    },
    findById: (id) => answerBusy(statements.findById(id)),
    list: (query) => answerBusy(statements.list(query)),
    count: (query) => answerBusy(statements.count(query)),
    countStamp: () => answerBusy(statements.countStamp()),
    stats: (options) => answerBusy(statements.stats(options)),
    unfoldedCountChanges: () => answerBusy(statements.unfoldedCountChanges()),
    maxId: () => answerBusy(statements.maxId()),
    async lowestFreePositiveId() {
      const id = await answerBusy(statements.lowestFreePositiveId());
      if (id === null) throw new Error('every positive int64 id is taken');
      return id;
    },
  };
}
