// One Prisma client per process, on the engine DATABASE_URL names: better-sqlite3 for a `file:`
// URL, node-postgres for a `postgresql:` one. Both generated clients come from the same models
// (scripts/prisma-generate.mjs), so the rest of the app sees one API.
import 'server-only';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as PostgresqlClient } from './generated/postgresql/client';
import { PrismaClient as SqliteClient, type Prisma } from './generated/sqlite/client';
import { processWide } from '../process-wide';
import { closeSqliteConnection } from './sqlite-connection';
import { databaseEngine, databaseUrl, ensureSqliteFile, type DatabaseEngine } from './url';

const BUSY_TIMEOUT_MS = 5000;
// Each instance holds at most this many PostgreSQL connections; several instances share a server.
const DEFAULT_POOL_SIZE = 10;

// A transaction waits to start as long as a single statement waits for a lock or a pooled
// connection, and may then spend that long again on its statements: Prisma's own defaults (2 s,
// 5 s) are outlasted by one statement's busy wait on SQLite or a busy instance's queue.
const TRANSACTION_OPTIONS = { maxWait: BUSY_TIMEOUT_MS, timeout: 2 * BUSY_TIMEOUT_MS };

export type Client = SqliteClient;
/** The client inside `db().$transaction(async (tx) => ...)`: changes that must commit together. */
export type Transaction = Prisma.TransactionClient;

function poolSize(): number {
  const configured = Number(process.env.DATABASE_POOL_SIZE);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_POOL_SIZE;
}

function createClient(): { client: Client; engine: DatabaseEngine } {
  const url = databaseUrl();
  const engine = databaseEngine(url);
  if (engine === 'sqlite') {
    // WAL is set on the file by migrations; busy_timeout is per connection, hence `timeout` here.
    const adapter = new PrismaBetterSqlite3({ url: `file:${ensureSqliteFile(url)}`, timeout: BUSY_TIMEOUT_MS });
    return { client: new SqliteClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }), engine };
  }
  const adapter = new PrismaPg({ connectionString: url, max: poolSize(), connectionTimeoutMillis: BUSY_TIMEOUT_MS });
  // The models are the same, only the provider differs, so the two clients' APIs are too.
  return { client: new PostgresqlClient({ adapter, transactionOptions: TRANSACTION_OPTIONS }) as unknown as Client, engine };
}

// One per process: Next evaluates this module once per route bundle (and the dev server again on
// every change), and each copy would otherwise open its own connections.
const prisma = processWide('prisma-client', () => ({ current: undefined as { client: Client; engine: DatabaseEngine } | undefined }));

function current() {
  return (prisma.current ??= createClient());
}

/** The process's Prisma client, opened on first use (never at build time). */
export function db(): Client {
  return current().client;
}

/** The engine the process's client talks to. */
export function dbEngine(): DatabaseEngine {
  return current().engine;
}

/** Closes the process's database connections (at shutdown); the next db() opens new ones. */
export async function closeDb(): Promise<void> {
  const open = prisma.current;
  prisma.current = undefined;
  closeSqliteConnection();
  await open?.client.$disconnect();
}
