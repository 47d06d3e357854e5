// The account changes that could leave no active admin, on SQLite (the AccountStore of
// lib/db/stores.ts): the shared guarded statements (lib/db/shared-sql.ts) in a transaction of
// Prisma's client. SQLite runs one writer at a time, so the statement alone decides. Raw SQL because
// the guard is a subquery over the other accounts in the statement that changes this one, which
// Prisma's query API cannot say.
import 'server-only';
import type { Prisma } from '../generated/sqlite/client';
import { db, type Transaction } from '../client';
import { disableUnlessLastAdmin, setRoleUnlessLastAdmin } from '../shared-sql';
import type { AccountStore } from '../stores';
import { toSqliteTime } from './connection';

function guardedUpdate(statement: Prisma.Sql, recorded: (tx: Transaction) => Promise<void>): Promise<number> {
  return db().$transaction(async (tx: Transaction) => {
    const count = await tx.$executeRaw(statement);
    if (count === 1) await recorded(tx);
    return count;
  });
}

export const sqliteAccounts: AccountStore = {
  // Timestamps in Prisma's own format on SQLite, so Prisma reads them back.
  disableUnlessLastAdmin: (id, at, recorded) => guardedUpdate(disableUnlessLastAdmin(id, toSqliteTime(at)), recorded),
  setRoleUnlessLastAdmin: (id, role, recorded) => guardedUpdate(setRoleUnlessLastAdmin(id, role), recorded),
};
