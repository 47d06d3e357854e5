// The Prisma client's type, and the options of every Prisma transaction. Each engine opens its own
// client (lib/db/sqlite/prisma-client.ts, lib/db/postgresql/prisma-client.ts); db() in
// lib/db/client.ts answers with the process's engine's.
import 'server-only';
import type { Types } from '@prisma/client/runtime/client';
import type * as Postgresql from './generated/postgresql/client';
// The models' API, generated from the schema you edit (prisma/schema.prisma). PostgreSQL's client is
// generated from the same models (scripts/prisma-generate.mjs), so its API is the same but for
// what only its engine has (more isolation levels): a Client is what both have.
import type * as Sqlite from './generated/sqlite/client';
import type { PrismaClient, Prisma } from './generated/sqlite/client';
import { BUSY_WAIT_LIMIT_MS } from './busy';

/** What a transaction may be given; only the timeouts, which TRANSACTION_OPTIONS sets for all. */
type TransactionOptions = { maxWait?: number; timeout?: number };

/** The client inside `db().$transaction(async (tx) => ...)`: changes that must commit together. */
export type Transaction = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

/** The Prisma client of either engine: the models' query API, raw statements, transactions. */
export type Client = Omit<PrismaClient, '$transaction' | '$on' | '$extends'> & {
  $transaction<P extends Prisma.PrismaPromise<unknown>[]>(arg: [...P], options?: TransactionOptions): Promise<Types.Utils.UnwrapTuple<P>>;
  $transaction<R>(fn: (tx: Transaction) => Promise<R>, options?: TransactionOptions): Promise<R>;
};

// Every Prisma transaction of the app (accounts, tokens, webhooks, the dispatcher's), on both
// engines, runs through this client's $transaction, so its options are set here and nowhere else. A
// transaction waits to start as long as a single statement waits for a lock or a pooled connection
// (maxWait), and may then run for three times that: Prisma's own defaults (2 s, 5 s) are outlasted
// by one statement's busy wait on SQLite or a busy instance's queue. Past either, the change is
// answered 503 with Retry-After (lib/db/busy.ts). The plant store's transactions are not Prisma's:
// SQLite's own connection runs them synchronously (lib/db/sqlite/connection.ts), and PostgreSQL's
// go through node-postgres with waits of their own (lib/db/postgresql/direct.ts).
export const TRANSACTION_OPTIONS = { maxWait: BUSY_WAIT_LIMIT_MS, timeout: 3 * BUSY_WAIT_LIMIT_MS };


// PostgreSQL's client as a Client. tsc cannot compare two generated clients' generic delegates (each
// namespace's conditional types are its own), so this one conversion is checked another way: the
// models and their rows are the same on both engines, or this module fails to compile; and every
// suite of test/db, test/api and test/cli runs on both.
type Models<Rows extends unknown[]> = Rows;
type SqliteModels = Models<[Sqlite.Plant, Sqlite.User, Sqlite.ApiToken, Sqlite.PasswordLink, Sqlite.LoginThrottle, Sqlite.RateLimitWindow, Sqlite.AuditEvent, Sqlite.WebhookEndpoint, Sqlite.WebhookEvent, Sqlite.WebhookDelivery]>;
type PostgresqlModels = Models<[Postgresql.Plant, Postgresql.User, Postgresql.ApiToken, Postgresql.PasswordLink, Postgresql.LoginThrottle, Postgresql.RateLimitWindow, Postgresql.AuditEvent, Postgresql.WebhookEndpoint, Postgresql.WebhookEvent, Postgresql.WebhookDelivery]>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameModels: Same<SqliteModels, PostgresqlModels> & Same<Sqlite.Prisma.ModelName, Postgresql.Prisma.ModelName> = true;
void sameModels;

/** PostgreSQL's generated client, as the models' Client (see above). */
export function postgresqlAsClient(client: Postgresql.PrismaClient): Client {
  return client as unknown as Client;
}
