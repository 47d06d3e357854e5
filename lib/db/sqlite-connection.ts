// The process's own better-sqlite3 connection for the API's hot statements (plants, token use),
// beside the Prisma client's. Prisma's query interpreter cost more per create than token check,
// validation and response together (see the README's Performance section); a prepared statement
// costs a few microseconds.
import Database from 'better-sqlite3';
import { ensureSqliteFile } from './url';

// A write that finds the file locked (a Prisma transaction in this process, the CLI in another)
// waits without blocking the event loop, and gives up after this long.
const BUSY_WAIT_LIMIT_MS = 5000;
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;

type Connection = { database: Database.Database; statements: Map<string, Database.Statement> };
const shared = globalThis as unknown as { plantStoreSqlite?: Connection };

function connection(): Connection {
  if (!shared.plantStoreSqlite?.database.open) {
    // timeout 0: better-sqlite3 would otherwise wait for a lock synchronously, stalling every
    // request in the process, and the lock holder with them when it is this process's Prisma.
    const database = new Database(ensureSqliteFile(), { timeout: 0 });
    database.defaultSafeIntegers(true);
    shared.plantStoreSqlite = { database, statements: new Map() };
  }
  return shared.plantStoreSqlite;
}

/** The statement for `sql`, prepared once per connection. Integers read as bigint. */
export function prepared<Parameters extends unknown[], Row = unknown>(sql: string): Database.Statement<Parameters, Row> {
  const { database, statements } = connection();
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = database.prepare(sql)));
  return statement as Database.Statement<Parameters, Row>;
}

export function closeSqliteConnection(): void {
  shared.plantStoreSqlite?.database.close();
  shared.plantStoreSqlite = undefined;
}

/** The database stayed locked for longer than a request should wait. */
export class DatabaseBusyError extends Error {
  constructor(cause: unknown) {
    super(`The SQLite database stayed locked for ${BUSY_WAIT_LIMIT_MS} ms`, { cause });
    this.name = 'DatabaseBusyError';
  }
}

function isBusy(error: unknown): boolean {
  return error instanceof Database.SqliteError && SQLITE_BUSY.test(error.code);
}

/**
 * Runs one autocommit statement, at once when the database is free; while it is locked, retries
 * after a growing pause (a busy statement changed nothing, so running it again is safe). Throws
 * DatabaseBusyError when time is up.
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

// Prisma's DateTime format on SQLite (@prisma/adapter-better-sqlite3, iso8601), so rows written
// here read back through Prisma, and the other way round.
export const toSqliteTime = (date: Date): string => date.toISOString().replace('Z', '+00:00');

/** Reads Prisma's format, and a column default's 'YYYY-MM-DD HH:MM:SS', which is UTC. */
export function fromSqliteTime(text: string): Date {
  return new Date(/[+Z]|-\d\d:\d\d$/.test(text.slice(19)) ? text : `${text.replace(' ', 'T')}Z`);
}
