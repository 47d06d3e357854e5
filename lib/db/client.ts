// One Prisma client per process, on better-sqlite3.
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from './generated/sqlite/client';
import { ensureSqliteFile } from './url';

const BUSY_TIMEOUT_MS = 5000;

function createClient() {
  const file = ensureSqliteFile();
  // WAL is set on the file by migrations; busy_timeout is per connection, hence `timeout` here.
  const adapter = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: BUSY_TIMEOUT_MS });
  return new PrismaClient({ adapter });
}

type Client = ReturnType<typeof createClient>;

// Next's dev server re-evaluates modules on every change; keeping the client on globalThis stops
// each reload from opening another connection.
const globalForPrisma = globalThis as unknown as { plantStorePrisma?: Client };

/** The process's Prisma client, opened on first use (never at build time). */
export function db(): Client {
  return (globalForPrisma.plantStorePrisma ??= createClient());
}
