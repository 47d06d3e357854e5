// A database that stays busy longer than a request should wait: SQLite's file locked by another
// connection (a write retries without blocking the event loop, lib/db/sqlite/connection.ts, then gives
// up with DatabaseBusyError), or a PostgreSQL transaction that could not start or finish in time
// (Prisma's P2028; DatabaseBusyError for the plant store's own, lib/db/postgresql/direct.ts, when no
// pooled connection or lock came within the wait). Either way the answer is the same 503 with
// Retry-After (answerBusy), and lib/db/unavailable.ts counts both as the database being unavailable.
import 'server-only';
import { ApiError } from '../errors';

/** How long a statement or a transaction may wait for a lock or a pooled connection, on either engine. */
export const BUSY_WAIT_LIMIT_MS = 5000;

const BUSY_MARK = Symbol.for('plant-store.database-busy');

/** The database stayed busy (a lock, or no pooled connection free) for longer than a request should wait. */
export class DatabaseBusyError extends Error {
  readonly [BUSY_MARK] = true;
  constructor(cause: unknown) {
    super(`The database stayed busy for ${BUSY_WAIT_LIMIT_MS} ms`, { cause });
    this.name = 'DatabaseBusyError';
  }
}

/**
 * Whether `error` is a DatabaseBusyError. Not `instanceof`: Next evaluates this module once per
 * route bundle, and a grouped write (inTransaction) may be flushed, and refused, by another
 * bundle's copy of the class.
 */
export function isDatabaseBusyError(error: unknown): error is DatabaseBusyError {
  return typeof error === 'object' && error !== null && (error as { [BUSY_MARK]?: boolean })[BUSY_MARK] === true;
}

/** Prisma's code for a transaction that timed out (waiting to start, or running). */
const isTransactionTimeout = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2028';

/** The store's answer when the database stays busy past the wait: 503, retry in a second. */
export async function answerBusy<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (isDatabaseBusyError(error) || isTransactionTimeout(error)) {
      throw new ApiError('unavailable', 'The database is busy: retry in a moment', { 'Retry-After': '1' });
    }
    throw error;
  }
}
