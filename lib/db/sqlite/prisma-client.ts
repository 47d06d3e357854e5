// SQLite's Prisma client, one per process (db() in lib/db/client.ts answers with it on SQLite),
// through @prisma/adapter-better-sqlite3 on the DATABASE_URL file: the models' query API, beside
// SQLite's own connection (lib/db/sqlite/connection.ts).
import 'server-only';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction as AdapterTransaction } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/sqlite/client';
import { processWide } from '../../process-wide';
import { BUSY_WAIT_LIMIT_MS } from '../busy';
import { sqliteSynchronous } from '../durability';
import { TRANSACTION_OPTIONS, type Client } from '../prisma';
import { databaseUrl, ensureSqliteFile } from '../url';
import { noLongTransaction, prismaTransactionTurn } from '../writer-turns';

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

function open(): Client {
  // WAL is set on the file by migrations; busy_timeout is per connection, hence `timeout` here.
  const factory = new PrismaBetterSqlite3({ url: `file:${ensureSqliteFile(databaseUrl())}`, timeout: BUSY_WAIT_LIMIT_MS });
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
  return new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
}

// One per process: Next evaluates this module once per route bundle (and the dev server again on
// every change), and each copy would otherwise open its own connections.
const prisma = processWide('sqlite-prisma-client', () => ({ current: undefined as Client | undefined }));

/** The process's Prisma client on SQLite, opened on first use (never at build time). */
export function sqlitePrisma(): Client {
  return (prisma.current ??= open());
}

/** Closes it; the next use opens another. */
export async function closeSqlitePrisma(): Promise<void> {
  const open = prisma.current;
  prisma.current = undefined;
  await open?.$disconnect();
}
