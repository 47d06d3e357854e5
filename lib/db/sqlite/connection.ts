// SQLite's own better-sqlite3 connection in this process, beside the Prisma client's, for the
// statements of lib/db/sqlite/: the API's hot paths (plants and their change records, token use, the
// dispatcher's) and the sign-in throttle. Prisma's query interpreter and adapter were about a third
// of a create's CPU, more than token check, validation and response together; as prepared
// statements here, a create with its audit record is a small part of it
// (docs/performance.md#the-api-on-sqlite). It also lets a write
// that finds the file locked wait without blocking the event loop, where Prisma's adapter waits
// synchronously and stalls the whole process.
import 'server-only';
import Database from 'better-sqlite3';
import { processWide } from '../../process-wide';
import { BUSY_WAIT_LIMIT_MS, DatabaseBusyError } from '../busy';
import { takeGroup } from '../groups';
import { sqliteSynchronous } from '../durability';
import { ensureSqliteFile } from '../url';

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
const shared = processWide('sqlite-connection', () => ({ current: undefined as Connection | undefined, opened: 0 }));

function connection(): Connection {
  if (!shared.current?.database.open) {
    // timeout 0: better-sqlite3 would otherwise wait for a lock synchronously, stalling every
    // request in the process, and the lock holder with them when it is this process's Prisma.
    const database = new Database(ensureSqliteFile(), { timeout: 0 });
    database.defaultSafeIntegers(true);
    // Per connection: how far a commit is on the disk before it is answered (lib/db/durability.ts).
    database.pragma(`synchronous = ${sqliteSynchronous()}`);
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
    shared.current = { serial: ++shared.opened, database, statements: new Map(), runGroup };
  }
  return shared.current;
}

/** The statement for `sql`, prepared once per connection. Integers read as bigint. */
export function prepared<Parameters extends unknown[], Row = unknown>(sql: string): Database.Statement<Parameters, Row> {
  const { database, statements } = connection();
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = database.prepare(sql)));
  return statement as Database.Statement<Parameters, Row>;
}

/** The connection itself, for the whole-database work of lib/db/sqlite/maintenance.ts (a backup's source). */
export function sqliteDatabase(): Database.Database {
  return connection().database;
}

/**
 * Changes whenever another connection (this process's Prisma client, another process) has committed
 * to the file since the last call: SQLite's data_version, with which connection read it (a new
 * connection's numbering starts afresh). This connection's own commits do not change it.
 */
export function othersCommitMark(): string {
  const { serial } = connection();
  return `${serial}.${prepared<[], { data_version: bigint }>('PRAGMA data_version').get()!.data_version}`;
}

export function closeSqliteConnection(): void {
  shared.current?.database.close();
  shared.current = undefined;
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
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

// Writes that arrive in the same turn of the event loop share one transaction, each in a
// savepoint of its own: one commit (and one pass of the write-ahead log over the pages they share)
// instead of one each. Under concurrent creates that is most of a create's cost: committed one by
// one, a create with its audit record and event cost several times its SQLite time; under load a
// commit carries many creates (docs/performance.md#the-api-on-sqlite). A group runs
// synchronously, holding the event loop, so it is bounded by weight (a plant a unit: a batch chunk
// weighs its plants), not only by count: ten parallel 1,000-plant batches would otherwise commit
// 2,500 plants, their audit records and events in one slice, and /api/health would wait for it.
type QueuedWork = { work: () => unknown; weight: number; queuedAt: number; resolve(value: unknown): void; reject(error: unknown): void };
const GROUP_MAX_WEIGHT = 500;
const writes = processWide('sqlite-write-group', () => ({ queue: [] as QueuedWork[], scheduled: false, busyDelayMs: 0 }));

/** The works of the next group: at least one, then as many as fit in GROUP_MAX_WEIGHT. */
const nextGroup = (): QueuedWork[] => takeGroup(writes.queue, (work) => work.weight, GROUP_MAX_WEIGHT);

function scheduleFlush(delayMs = 0): void {
  if (writes.scheduled) return;
  writes.scheduled = true;
  if (delayMs > 0) setTimeout(flush, delayMs);
  else setImmediate(flush);
}

function flush(): void {
  writes.scheduled = false;
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
      // Locked by another connection: nothing was written. Wait a little longer each time; give
      // up on what has waited past the limit, retry the rest.
      const now = Date.now();
      const waiting = group.filter((item) => {
        if (now - item.queuedAt <= BUSY_WAIT_LIMIT_MS) return true;
        item.reject(new DatabaseBusyError(error));
        return false;
      });
      writes.queue.unshift(...waiting);
      writes.busyDelayMs = Math.min(Math.max(1, writes.busyDelayMs * 2), 50);
      scheduleFlush(writes.busyDelayMs);
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

// Prisma's DateTime format on SQLite (@prisma/adapter-better-sqlite3, iso8601), so rows written
// here read back through Prisma, and the other way round.
export const toSqliteTime = (date: Date): string => date.toISOString().replace('Z', '+00:00');

/** Reads Prisma's format, and a column default's 'YYYY-MM-DD HH:MM:SS', which is UTC. */
export function fromSqliteTime(text: string): Date {
  return new Date(/[+Z]|-\d\d:\d\d$/.test(text.slice(19)) ? text : `${text.replace(' ', 'T')}Z`);
}
