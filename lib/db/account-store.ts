// The account changes that could leave no active admin (the AccountStore of lib/db/stores.ts),
// written once on an engine's executor: the guarded statement (lib/db/shared-sql.ts) and the
// change's audit record in one transaction of Prisma's client. Raw SQL because the guard is a
// subquery over the other accounts in the statement that changes this one, which Prisma's query API
// cannot say. SQLite runs one writer at a time, so the statement alone decides; on PostgreSQL a
// statement's subquery reads the rows as they were when it started, so two admins disabling each
// other at once would each still see the other: every change that can remove an admin first takes
// its turn (the executor's `oneAtATime`, an advisory lock there).
import 'server-only';
import type { Transaction } from './prisma';
import { DISABLE_UNLESS_LAST_ADMIN, SET_ROLE_UNLESS_LAST_ADMIN } from './shared-sql';
import type { AccountStore, Executor, SqlParameters } from './stores';

// The turn of changes that can remove an admin (any fixed number will do).
const ADMIN_CHANGE_LOCK = 1402001;

export function accountStore(executor: Executor): AccountStore {
  const guardedUpdate = (statement: string, parameters: SqlParameters, recorded: (tx: Transaction) => Promise<void>) =>
    executor.transaction(
      async (tx, prisma) => {
        const count = await tx.run(statement, parameters);
        if (count === 1) await recorded(prisma);
        return count;
      },
      { oneAtATime: ADMIN_CHANGE_LOCK },
    );
  return {
    disableUnlessLastAdmin: (id, at, recorded) => guardedUpdate(DISABLE_UNLESS_LAST_ADMIN, { id, at }, recorded),
    setRoleUnlessLastAdmin: (id, role, recorded) => guardedUpdate(SET_ROLE_UNLESS_LAST_ADMIN, { id, role }, recorded),
  };
}
