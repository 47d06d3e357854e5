// One Prisma client per process, on the engine DATABASE_URL names: better-sqlite3 for a `file:`
// URL, node-postgres for a `postgresql:` one. Both generated clients come from the same models
// (scripts/prisma-generate.mjs), so the rest of the app sees one API. On PostgreSQL the client's
// pool of connections is made here, and the engine's own statements share it
// (lib/db/postgresql/direct.ts): one pool, of DATABASE_POOL_SIZE connections, per instance.
import 'server-only';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction as AdapterTransaction } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaClient as PostgresqlClient } from './generated/postgresql/client';
import { PrismaClient as SqliteClient, type Prisma } from './generated/sqlite/client';
import { log } from '../log';
import { processWide } from '../process-wide';
import { settings } from '../settings';
import { BUSY_WAIT_LIMIT_MS } from './busy';
import { sqliteSynchronous } from './durability';
import { databaseEngine, databaseUrl, ensureSqliteFile } from './url';
import { noLongTransaction, prismaTransactionTurn } from './writer-turns';

// Every Prisma transaction of the app (accounts, tokens, webhooks, the dispatcher's), on both
// engines, runs through this client's $transaction, so its options are set here and nowhere else. A
// transaction waits to start as long as a single statement waits for a lock or a pooled connection
// (maxWait), and may then run for three times that: Prisma's own defaults (2 s, 5 s) are outlasted
// by one statement's busy wait on SQLite or a busy instance's queue. Past either, the change is
// answered 503 with Retry-After (lib/db/busy.ts). The plant store's transactions are not Prisma's:
// SQLite's own connection runs them synchronously (lib/db/sqlite/connection.ts), and PostgreSQL's
// go through node-postgres with waits of their own (lib/db/postgresql/direct.ts).
const TRANSACTION_OPTIONS = { maxWait: BUSY_WAIT_LIMIT_MS, timeout: 3 * BUSY_WAIT_LIMIT_MS };

export type Client = SqliteClient;
/** The client inside `db().$transaction(async (tx) => ...)`: changes that must commit together. */
export type Transaction = Prisma.TransactionClient;

// Statements that only read (Prisma's reads all start so) never wait for the file's lock in WAL mode.
const READS = /^\s*select\b/i;

/**
 * Prisma's SQLite connection, with its writes taking turns with this process's long transactions
 * (lib/db/writer-turns.ts): a transaction waits, without blocking, for the long transaction running
 * to end and holds the next one off until it ends itself; a write of one statement waits for the end
 * and then runs at once, before another long transaction can start. Reads go straight on.
 */
function takingTurns(connection: SqlDriverAdapter): SqlDriverAdapter {
  const inTurn = <T>(sql: string, run: () => Promise<T>) => (READS.test(sql) ? run() : noLongTransaction().then(run));
  const overrides: Partial<SqlDriverAdapter> = {
    queryRaw: (query) => inTurn(query.sql, () => connection.queryRaw(query)),
    executeRaw: (query) => inTurn(query.sql, () => connection.executeRaw(query)),
    executeScript: (script) => inTurn(script, () => connection.executeScript(script)),
    async startTransaction(isolationLevel) {
      const release = await prismaTransactionTurn();
      let transaction: AdapterTransaction;
      try {
        transaction = await connection.startTransaction(isolationLevel);
      } catch (error) {
        release();
        throw error;
      }
      // Prisma calls one of these once its COMMIT or ROLLBACK has run.
      return withOverrides(transaction, {
        commit: () => transaction.commit().finally(release),
        rollback: () => transaction.rollback().finally(release),
      });
    },
  };
  return withOverrides(connection, overrides);
}

/** `target` with some of its methods replaced; the rest called on `target` itself (the adapter's classes keep private fields). */
function withOverrides<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

function createClient(): Client {
  const url = databaseUrl();
  if (databaseEngine(url) === 'sqlite') {
    // WAL is set on the file by migrations; busy_timeout is per connection, hence `timeout` here.
    const factory = new PrismaBetterSqlite3({ url: `file:${ensureSqliteFile(url)}`, timeout: BUSY_WAIT_LIMIT_MS });
    // synchronous is per connection too: Prisma's commits (accounts, tokens, webhooks) are as
    // durable as the API's own (lib/db/durability.ts).
    const synchronous = `PRAGMA synchronous = ${sqliteSynchronous()}`;
    const adapter: SqlDriverAdapterFactory = {
      provider: factory.provider,
      adapterName: factory.adapterName,
      connect: async () => {
        const connection = await factory.connect();
        await connection.executeScript(synchronous);
        return takingTurns(connection);
      },
    };
    return new SqliteClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  }
  // Each instance holds at most DATABASE_POOL_SIZE connections; several instances share a server.
  prisma.pool = new pg.Pool({ connectionString: url, max: settings().DATABASE_POOL_SIZE, connectionTimeoutMillis: BUSY_WAIT_LIMIT_MS });
  // An idle connection the server ends (a restart, an administrator's kill) is an 'error' event on
  // the pool, which throws in the process if nobody listens: the pool has already dropped the
  // connection and opens another when next asked, so a warning is all there is to do.
  prisma.pool.on('error', (error) => log.warn('database connection lost while idle', { error: error.message }));
  const adapter = new PrismaPg(prisma.pool);
  // The models are the same, only the provider differs, so the two clients' APIs are too.
  return new PostgresqlClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }) as unknown as Client;
}

// One per process: Next evaluates this module once per route bundle (and the dev server again on
// every change), and each copy would otherwise open its own connections.
const prisma = processWide('prisma-client', () => ({ current: undefined as Client | undefined, pool: undefined as pg.Pool | undefined }));

/** The process's Prisma client, opened on first use (never at build time). */
export function db(): Client {
  return (prisma.current ??= createClient());
}

/** On PostgreSQL, the pool under the process's Prisma client, opened with it. */
export function postgresqlPool(): pg.Pool {
  db();
  if (!prisma.pool) throw new Error('postgresqlPool: the database is not PostgreSQL');
  return prisma.pool;
}

/**
 * Whether the database answers (the health check). The one raw statement outside the engines'
 * folders: `SELECT 1` means the same on both, and Prisma's query API cannot ask without reading a table.
 */
export async function checkDatabase(): Promise<void> {
  await db().$queryRaw`SELECT 1`;
}

/** Closes the Prisma client's connections (on PostgreSQL, the pool the engine's statements share); closeDb (lib/db/engine.ts) closes the engine's own too. */
export async function closePrismaClient(): Promise<void> {
  const { current: open, pool } = prisma;
  prisma.current = undefined;
  prisma.pool = undefined;
  await open?.$disconnect();
  // Prisma leaves a pool it was given open.
  await pool?.end();
}
