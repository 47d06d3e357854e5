// PostgreSQL's executor (the Executor of lib/db/stores.ts): a statement on its own runs through
// node-postgres on the pool under Prisma's client (lib/db/postgresql/direct.ts), as the engine's
// own statements do; a transaction is Prisma's, so that Prisma's writes in it commit with the
// statements.
import 'server-only';
import { positional } from '../shared-sql';
import type { Executor, SqlParameters, SqlRunner } from '../stores';
import { direct } from './direct';
import { postgresqlPrisma } from './prisma-client';

// `timestamp` columns hold UTC: node-postgres would send a Date in the process's own zone.
const directValue = (value: SqlParameters[string]) => (value instanceof Date ? value.toISOString() : value);

export const postgresqlExecutor: Executor = {
  query: <Row>(sql: string, parameters?: SqlParameters) => {
    const { text, values } = positional(sql, parameters, 'numbered');
    return direct.$queryRawUnsafe<Row[]>(text, ...values.map(directValue));
  },
  run: (sql, parameters) => {
    const { text, values } = positional(sql, parameters, 'numbered');
    return direct.$executeRawUnsafe(text, ...values.map(directValue));
  },
  transaction(work, options) {
    return postgresqlPrisma().$transaction(async (prisma) => {
      const tx: SqlRunner = {
        query: <Row>(sql: string, parameters?: SqlParameters) => {
          const { text, values } = positional(sql, parameters, 'numbered');
          return prisma.$queryRawUnsafe<Row[]>(text, ...values);
        },
        run: (sql, parameters) => {
          const { text, values } = positional(sql, parameters, 'numbered');
          return prisma.$executeRawUnsafe(text, ...values);
        },
      };
      // A statement's subquery reads the rows as they were when it started, so two such changes
      // at once would each miss the other's: a transaction-scoped advisory lock makes them take turns.
      if (options?.oneAtATime !== undefined) await tx.query('SELECT 1 AS "locked" FROM pg_advisory_xact_lock(@key)', { key: options.oneAtATime });
      return work(tx, prisma);
    });
  },
};
