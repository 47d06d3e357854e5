// The account changes that could leave no active admin, on PostgreSQL (the AccountStore of
// lib/db/stores.ts): the shared guarded statements (lib/db/shared-sql.ts) in a transaction of
// Prisma's client. Raw SQL because the guard is a subquery over the other accounts in the statement
// that changes this one, and the lock below, neither of which Prisma's query API can say.
import 'server-only';
import type { Prisma } from '../generated/sqlite/client';
import { db, type Transaction } from '../client';
import { disableUnlessLastAdmin, setRoleUnlessLastAdmin } from '../shared-sql';
import type { AccountStore } from '../stores';

// A statement's subquery reads the rows as they were when it started, so two admins disabling each
// other at once would each still see the other; every change that can remove an admin therefore
// first takes one transaction-scoped advisory lock (this key; any fixed number will do).
const ADMIN_CHANGE_LOCK = 1402001;

function guardedUpdate(statement: Prisma.Sql, recorded: (tx: Transaction) => Promise<void>): Promise<number> {
  return db().$transaction(async (tx: Transaction) => {
    await tx.$queryRaw`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${ADMIN_CHANGE_LOCK})`;
    const count = await tx.$executeRaw(statement);
    if (count === 1) await recorded(tx);
    return count;
  });
}

export const postgresqlAccounts: AccountStore = {
  disableUnlessLastAdmin: (id, at, recorded) => guardedUpdate(disableUnlessLastAdmin(id, at), recorded),
  setRoleUnlessLastAdmin: (id, role, recorded) => guardedUpdate(setRoleUnlessLastAdmin(id, role), recorded),
};
