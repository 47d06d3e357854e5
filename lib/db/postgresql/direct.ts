// The PostgreSQL engine's own statements, sent straight through node-postgres on the pool under
// Prisma's client (lib/db/postgresql/prisma-client.ts): the API's hot paths (the plants' statements and their change
// records, the rate counts). Prisma's raw queries cost each statement its query interpreter and
// adapter on top of node-postgres: more of the server's CPU over the search mix on 100,000 plants
// than the driver's own (docs/performance.md#the-catalogue-on-100000-plants). Rows come back typed
// as Prisma's raw queries type them, so the statements read the same either way: int8 as bigint,
// `timestamp` as the UTC instant it holds.
import 'server-only';
import pg from 'pg';
import { BUSY_WAIT_LIMIT_MS, DatabaseBusyError } from '../busy';
import { postgresqlPool } from './prisma-client';

/** What the engine's statements need of a connection: Prisma's client and its transactions have the same two methods. */
export type Queryable = {
  $queryRawUnsafe<Row = unknown>(sql: string, ...values: unknown[]): Promise<Row>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
};

const { INT8, TIMESTAMP } = pg.types.builtins;
// `timestamp` columns hold UTC (every writer sends UTC text or Prisma's UTC), without a zone.
const utcInstant = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
const TYPES = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === INT8) return BigInt;
    if (oid === TIMESTAMP) return utcInstant;
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

// pg-pool's error when no connection came free within its connectionTimeoutMillis (the busy wait,
// lib/db/busy.ts), and PostgreSQL's when a lock did not come within a transaction's lock_timeout:
// the same 503 as a transaction Prisma could not start or finish in time.
const POOL_TIMEOUT = 'timeout exceeded when trying to connect';
const LOCK_NOT_AVAILABLE = '55P03';
const isBusy = (error: unknown) => error instanceof Error && (error.message === POOL_TIMEOUT || (error as { code?: unknown }).code === LOCK_NOT_AVAILABLE);

async function busyAsBusy<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw isBusy(error) ? new DatabaseBusyError(error) : error;
  }
}

const run = (on: pg.Pool | pg.PoolClient, sql: string, values: unknown[]) => busyAsBusy(on.query({ text: sql, values, types: TYPES }));

function queryableOn(on: () => pg.Pool | pg.PoolClient): Queryable {
  return {
    $queryRawUnsafe: async <Row>(sql: string, ...values: unknown[]) => (await run(on(), sql, values)).rows as Row,
    $executeRawUnsafe: async (sql: string, ...values: unknown[]) => (await run(on(), sql, values)).rowCount ?? 0,
  };
}

/** Each statement on its own (autocommit), on a connection of the pool. */
export const direct: Queryable = queryableOn(postgresqlPool);

// A transaction waits for a pooled connection at most the pool's connectionTimeoutMillis, and for
// each lock at most as long (BUSY_WAIT_LIMIT_MS, as a write on SQLite waits for the file's lock).
const BEGIN = `BEGIN; SET LOCAL lock_timeout = ${BUSY_WAIT_LIMIT_MS}`;

/**
 * Runs `work` in one transaction on one pooled connection: committed if it resolves, rolled back if
 * it throws. BEGIN and its lock timeout go as one message, so a transaction costs the round trips
 * of its statements and two more.
 */
export async function directTransaction<T>(work: (tx: Queryable) => T | Promise<T>): Promise<T> {
  const client = await busyAsBusy(postgresqlPool().connect());
  // A connection lost while it is out of the pool (the server ends it, the network resets it) fails
  // the statement running on it, and is also an 'error' event on the client, which would throw in
  // the process if nobody listened: the pool listens only while the connection is idle.
  let lost: Error | undefined;
  const onLost = (error: Error) => (lost ??= error);
  client.on('error', onLost);
  const release = (error?: Error) => {
    client.off('error', onLost);
    client.release(error ?? lost);
  };
  try {
    await busyAsBusy(client.query(BEGIN));
    const result = await work(queryableOn(() => client));
    await busyAsBusy(client.query('COMMIT'));
    release();
    return result;
  } catch (error) {
    // A connection that cannot even roll back is closed rather than handed to the next caller.
    await client.query('ROLLBACK').then(
      () => release(),
      (rollbackFailed: Error) => release(rollbackFailed),
    );
    throw error;
  }
}
