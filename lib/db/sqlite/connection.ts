// SQLite's own better-sqlite3 connection in this process, beside the Prisma client's, for the
// statements of lib/db/sqlite/: the API's hot paths (plants and their change records, token use, the
// dispatcher's) and the sign-in throttle. Prisma's query interpreter and adapter were about a third
// of a create's CPU, more than token check, validation and response together; as prepared
// statements here, a create with its audit record is a small part of it
// (docs/performance.md#the-api-on-sqlite). It also lets a write
// that finds the file locked wait without blocking the event loop, where Prisma's adapter waits
// synchronously and stalls the whole process.
//
// A second connection runs the long transactions (a batch's plants, in one transaction that lets the
// event loop run between slices of its work; see inLongTransaction below), so that while one is
// open, every other statement of this process reads, on the first connection, only what has been
// committed.
import 'server-only';
import Database from 'better-sqlite3';
import { recordLongTransaction } from '../../metrics/registry';
import { processWide } from '../../process-wide';
import { BUSY_WAIT_LIMIT_MS, DatabaseBusyError } from '../busy';
import { takeGroup } from '../groups';
import { sqliteSynchronous } from '../durability';
import { ensureSqliteFile } from '../url';
import { longTransactionRunning, longTransactionTurn, noLongTransaction } from '../writer-turns';

// A write that finds the file locked (a Prisma transaction in this process, the CLI in another)
// waits without blocking the event loop, and gives up after BUSY_WAIT_LIMIT_MS.
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
type Connection = {
  /** Which connection of this process's life this is (the first is 1). */
  serial: number;
  database: Database.Database;
  statements: Map<string, Database.Statement>;
  /** Runs each work in a savepoint of one transaction; what each returned or threw. */
  runGroup: Database.Transaction<(works: (() => unknown)[]) => Outcome[]>;
};
const shared = processWide('sqlite-connection', () => ({
  current: undefined as Connection | undefined,
  /** The long transactions' connection. */
  long: undefined as Connection | undefined,
  opened: 0,
}));

function open(): Connection {
  // timeout 0: better-sqlite3 would otherwise wait for a lock synchronously, stalling every
  // request in the process, and the lock holder with them when it is this process's Prisma.
  const database = new Database(ensureSqliteFile(), { timeout: 0 });
  database.defaultSafeIntegers(true);
  // Per connection: how far a commit is on the disk before it is answered (lib/db/durability.ts).
  database.pragma(`synchronous = ${sqliteSynchronous()}`);
  // The savepoints of a group commit (below) keep the pages each work changes in a journal of their
  // own for the whole transaction; past a small size SQLite spills that journal to a temporary file,
  // and a group of creates spilled after a few of them, so every later savepoint cost file writes:
  // about a third of a create's SQLite work (docs/performance.md#the-api-on-sqlite). In memory, the
  // journal lasts until the commit and is freed with it; a group is bounded by GROUP_MAX_WEIGHT.
  // Sorts and temporary tables stay in memory too; the API's lists sort at most a page's rows.
  database.pragma('temp_store = MEMORY');
  // A transaction inside a transaction is a savepoint: a throw undoes that work alone.
  const savepoint = database.transaction((work: () => unknown) => work());
  const runGroup = database.transaction((works: (() => unknown)[]) =>
    works.map((work): Outcome => {
      try {
        return { ok: true, value: savepoint(work) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  return { serial: ++shared.opened, database, statements: new Map(), runGroup };
}

function connection(): Connection {
  if (!shared.current?.database.open) shared.current = open();
  return shared.current;
}

function longConnection(): Connection {
  if (!shared.long?.database.open) shared.long = open();
  return shared.long;
}

function preparedOn<Parameters extends unknown[], Row>({ database, statements }: Connection, sql: string): Database.Statement<Parameters, Row> {
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = database.prepare(sql)));
  return statement as Database.Statement<Parameters, Row>;
}

/** The statement for `sql`, prepared once per connection. Integers read as bigint. */
export function prepared<Parameters extends unknown[], Row = unknown>(sql: string): Database.Statement<Parameters, Row> {
  return preparedOn<Parameters, Row>(connection(), sql);
}

/**
 * A write transaction's handle, which the statements that make a change are run on: its
 * connection's statements, and where it may, a pause that lets the event loop run.
 */
export type SqliteTransaction = {
  prepared<Parameters extends unknown[], Row = unknown>(sql: string): Database.Statement<Parameters, Row>;
  /**
   * Called between the rows of a change. In a long transaction, once its work has held the event
   * loop for LONG_TRANSACTION_SLICE_MS, a promise that resolves on a later turn, other requests
   * having run meanwhile; otherwise undefined, and the work goes on at once.
   */
  pause(): Promise<void> | undefined;
};

/** The handle of a group commit's works: the first connection, never paused (they run whole in one call). */
export const groupTransaction: SqliteTransaction = { prepared, pause: () => undefined };

/** The connection itself, for the whole-database work of lib/db/sqlite/maintenance.ts (a backup's source). */
export function sqliteDatabase(): Database.Database {
  return connection().database;
}

/**
 * Changes whenever another connection (this process's Prisma client, its long transactions', another
 * process) has committed to the file since the last call: SQLite's data_version, with which connection read it (a new
 * connection's numbering starts afresh). This connection's own commits do not change it.
 */
export function othersCommitMark(): string {
  const { serial } = connection();
  return `${serial}.${prepared<[], { data_version: bigint }>('PRAGMA data_version').get()!.data_version}`;
}

export function closeSqliteConnection(): void {
  shared.current?.database.close();
  shared.current = undefined;
  shared.long?.database.close();
  shared.long = undefined;
}

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && SQLITE_BUSY.test(error.code);
}

/**
 * Runs one autocommit statement or one transaction, at once when the database is free; while it
 * is locked, retries after a growing pause (a busy statement or transaction changed nothing, so
 * running it again is safe). Throws DatabaseBusyError when time is up.
 */
export async function whenNotBusy<T>(statement: () => T): Promise<T> {
  const started = Date.now();
  for (let delayMs = 1; ; delayMs = Math.min(delayMs * 2, 50)) {
    try {
      return statement();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (Date.now() - started > BUSY_WAIT_LIMIT_MS) throw new DatabaseBusyError(error);
    }
    // A long transaction of this process holds the lock: it is retried as soon as that one ends,
    // before another can start (a timer could miss the moment between two).
    if (longTransactionRunning()) await noLongTransaction();
    else await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

// Writes that arrive in the same turn of the event loop share one transaction, each in a
// savepoint of its own: one commit (and one pass of the write-ahead log over the pages they share)
// instead of one each. Under concurrent creates that is most of a create's cost: committed one by
// one, a create with its audit record and event cost several times its SQLite time; under load a
// commit carries many creates (docs/performance.md#the-api-on-sqlite). A group runs synchronously,
// holding the event loop, so it is bounded by weight (a plant a unit), not only by count; and a
// change of more than LONG_TRANSACTION_WEIGHT plants (a batch's) is a long transaction of its own
// instead (below).
type QueuedWork = {
  work: () => unknown;
  /** A long transaction's work instead (inLongTransaction). */
  long?: (tx: SqliteTransaction) => Promise<unknown>;
  weight: number;
  queuedAt: number;
  resolve(value: unknown): void;
  reject(error: unknown): void;
};
const GROUP_MAX_WEIGHT = 500;
const writes = processWide('sqlite-write-group', () => ({ queue: [] as QueuedWork[], scheduled: false, busyDelayMs: 0 }));

/**
 * The plants a change may write in one synchronous call of a group commit; one of more is a long
 * transaction. Even with names of the longest length (a plant's search entries are most of its
 * cost), this many hold the event loop about as long as one slice of a long transaction
 * (docs/performance.md#a-batchs-transaction-in-slices-on-sqlite).
 */
export const LONG_TRANSACTION_WEIGHT = 100;
/**
 * How long a long transaction's work holds the event loop before it lets other requests run: a
 * request that needs a few turns (read, authenticate, query, answer) waits about this long at each.
 */
const LONG_TRANSACTION_SLICE_MS = 20;

/** The works of the next group: at least one, then as many as fit in GROUP_MAX_WEIGHT, up to a long transaction's. */
function nextGroup(): QueuedWork[] {
  const end = writes.queue.findIndex((item) => item.long);
  if (end === -1) return takeGroup(writes.queue, (work) => work.weight, GROUP_MAX_WEIGHT);
  const group = takeGroup(writes.queue.slice(0, end), (work) => work.weight, GROUP_MAX_WEIGHT);
  writes.queue.splice(0, group.length);
  return group;
}

function scheduleFlush(delayMs = 0): void {
  if (writes.scheduled) return;
  writes.scheduled = true;
  if (delayMs > 0) setTimeout(flush, delayMs);
  else setImmediate(flush);
}

/** Locked by another connection: nothing was written. Gives up on what has waited past the limit, and retries the rest a little later each time. */
function retryLater(items: QueuedWork[], error: unknown): void {
  const now = Date.now();
  const waiting = items.filter((item) => {
    if (now - item.queuedAt <= BUSY_WAIT_LIMIT_MS) return true;
    item.reject(new DatabaseBusyError(error));
    return false;
  });
  writes.queue.unshift(...waiting);
  writes.busyDelayMs = Math.min(Math.max(1, writes.busyDelayMs * 2), 50);
  scheduleFlush(writes.busyDelayMs);
}

function flush(): void {
  writes.scheduled = false;
  // A long transaction's end flushes what queued meanwhile.
  if (longTransactionRunning()) return;
  if (writes.queue[0]?.long) return startLongTransaction();
  const group = nextGroup();
  if (group.length === 0) return;
  let outcomes: Outcome[];
  try {
    // BEGIN IMMEDIATE: a locked file is found at the start, before anything is written.
    outcomes = connection().runGroup.immediate(group.map((item) => item.work));
  } catch (error) {
    if (!isBusy(error)) {
      for (const item of group) item.reject(error);
    } else {
      retryLater(group, error);
    }
    return;
  }
  writes.busyDelayMs = 0;
  group.forEach((item, index) => {
    const outcome = outcomes[index];
    if (outcome.ok) item.resolve(outcome.value);
    else item.reject(outcome.error);
  });
  if (writes.queue.length > 0) scheduleFlush();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Runs the long transaction at the head of the queue on its own connection: BEGIN IMMEDIATE, its
 * work in slices with the event loop running between them, then COMMIT (or ROLLBACK when the work
 * throws or the commit fails). Nothing else of this process writes meanwhile: group commits wait
 * in the queue, a statement that finds the lock waits for the end (whenNotBusy), and Prisma's
 * transactions wait for their turn (lib/db/writer-turns.ts), as a long transaction waits for theirs.
 */
function startLongTransaction(): void {
  const turn = longTransactionTurn(() => scheduleFlush());
  if (!turn) return;
  const item = writes.queue.shift()!;
  // Its statements go to this connection only: closed meanwhile (closeDb), they fail, and nothing is
  // written outside the transaction.
  const onConnection = longConnection();
  const { database } = onConnection;
  try {
    database.exec('BEGIN IMMEDIATE');
  } catch (error) {
    turn.end();
    if (isBusy(error)) retryLater([item], error);
    else {
      item.reject(error);
      if (writes.queue.length > 0) scheduleFlush();
    }
    return;
  }
  writes.busyDelayMs = 0;
  const started = performance.now();
  let sliceStarted = started;
  const tx: SqliteTransaction = {
    prepared: (sql) => preparedOn(onConnection, sql),
    pause: () =>
      performance.now() - sliceStarted < LONG_TRANSACTION_SLICE_MS
        ? undefined
        : nextTurn().then(() => {
            sliceStarted = performance.now();
          }),
  };
  const end = (settle: () => void) => {
    if (database.open && database.inTransaction) {
      try {
        database.exec('ROLLBACK');
      } catch {
        // Rolled back already (SQLite undoes a transaction a full disk or an I/O error broke).
      }
    }
    turn.end();
    // The last of a run of batches gives back the memory its connection kept, a share of the
    // server's RSS after a load (docs/performance.md#a-batchs-transaction-in-slices-on-sqlite); the
    // next batch of a run reuses it.
    if (database.open && !writes.queue.some((queued) => queued.long)) database.pragma('shrink_memory');
    recordLongTransaction((performance.now() - started) / 1000);
    settle();
    if (writes.queue.length > 0) scheduleFlush();
  };
  // The first slice runs in this turn, as a group commit would.
  item.long!(tx).then(
    (value) => {
      try {
        database.exec('COMMIT');
      } catch (error) {
        return end(() => item.reject(error));
      }
      end(() => item.resolve(value));
    },
    (error: unknown) => end(() => item.reject(error)),
  );
}

/**
 * Runs `work` atomically on this connection, and resolves once it is committed. `work` is
 * synchronous (nothing else in this process runs between its statements); a throw undoes it
 * alone. Work queued in the same turn of the event loop commits together, up to a weight (see
 * above; `weight` is about how many plants `work` writes); while another connection holds the
 * file, it waits as whenNotBusy does.
 */
export function inTransaction<T>(work: () => T, weight = 1): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    writes.queue.push({ work, weight, queuedAt: Date.now(), resolve: resolve as (value: unknown) => void, reject });
    scheduleFlush();
  });
}

/**
 * Runs `work` in a transaction of its own on the long transactions' connection, and resolves once
 * it is committed; a throw (or a failed commit) undoes all of it. `work` makes its change through
 * `tx` and calls `tx.pause()` between rows: the event loop runs between its slices, and no other
 * write of this process runs until it ends. It takes its place in the queue of group commits.
 */
export function inLongTransaction<T>(work: (tx: SqliteTransaction) => T | Promise<T>, weight: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const long = async (tx: SqliteTransaction) => work(tx);
    writes.queue.push({ work: () => undefined, long, weight, queuedAt: Date.now(), resolve: resolve as (value: unknown) => void, reject });
    scheduleFlush();
  });
}

// Prisma's DateTime format on SQLite (@prisma/adapter-better-sqlite3, iso8601), so rows written
// here read back through Prisma, and the other way round.
export const toSqliteTime = (date: Date): string => date.toISOString().replace('Z', '+00:00');

/** Reads Prisma's format, and a column default's 'YYYY-MM-DD HH:MM:SS', which is UTC. */
export function fromSqliteTime(text: string): Date {
  return new Date(/[+Z]|-\d\d:\d\d$/.test(text.slice(19)) ? text : `${text.replace(' ', 'T')}Z`);
}
