// PostgreSQL's Prisma client, one per process (db() in lib/db/client.ts answers with it on
// PostgreSQL), through @prisma/adapter-pg on a pool made here, which the engine's own statements
// share (lib/db/postgresql/direct.ts): one pool, of DATABASE_POOL_SIZE connections, per instance.
import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/postgresql/client';
import { log } from '../../log';
import { processWide } from '../../process-wide';
import { settings } from '../../settings';
import { BUSY_WAIT_LIMIT_MS } from '../busy';
import { postgresqlAsClient, TRANSACTION_OPTIONS, type Client } from '../prisma';

// One per process: Next evaluates this module once per route bundle (and the dev server again on
// every change), and each copy would otherwise open its own connections.
const prisma = processWide('postgresql-prisma-client', () => ({ current: undefined as Client | undefined, pool: undefined as pg.Pool | undefined }));

function open(): Client {
  // Each instance holds at most DATABASE_POOL_SIZE connections; several instances share a server.
  const pool = new pg.Pool({ connectionString: settings().DATABASE_URL, max: settings().DATABASE_POOL_SIZE, connectionTimeoutMillis: BUSY_WAIT_LIMIT_MS });
  // An idle connection the server ends (a restart, an administrator's kill) is an 'error' event on
  // the pool, which throws in the process if nobody listens: the pool has already dropped the
  // connection and opens another when next asked, so a warning is all there is to do.
  pool.on('error', (error) => log.warn('database connection lost while idle', { error: error.message }));
  prisma.pool = pool;
  return postgresqlAsClient(new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS }));
}

/** The process's Prisma client on PostgreSQL, opened on first use (never at build time). */
export function postgresqlPrisma(): Client {
  return (prisma.current ??= open());
}

/** The pool under the process's Prisma client, opened with it. */
export function postgresqlPool(): pg.Pool {
  postgresqlPrisma();
  return prisma.pool!;
}

/** Closes the client and the pool the engine's statements share; the next use opens new ones. */
export async function closePostgresqlPrisma(): Promise<void> {
  const { current: open, pool } = prisma;
  prisma.current = undefined;
  prisma.pool = undefined;
  await open?.$disconnect();
  // Prisma leaves a pool it was given open.
  await pool?.end();
}
