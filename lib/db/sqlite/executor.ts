// SQLite's executor (the Executor of lib/db/stores.ts): a statement on its own runs on SQLite's own
// connection, prepared once, waiting without blocking the event loop while the file is locked
// (whenNotBusy, lib/db/sqlite/connection.ts), where Prisma's adapter would stall the process; a
// transaction is Prisma's, so that Prisma's writes in it commit with the statements.
import 'server-only';
import { positional } from '../shared-sql';
import type { Executor, SqlParameters, SqlRunner } from '../stores';
import { prepared, toSqliteTime, whenNotBusy } from './connection';
import { sqlitePrisma } from './prisma-client';

type Bound = Record<string, string | number | bigint | null>;

// Times in Prisma's own format on SQLite, so Prisma reads them back.
const sqliteValue = (value: SqlParameters[string]) => (value instanceof Date ? toSqliteTime(value) : value);

function bound(parameters: SqlParameters = {}): Bound {
  return Object.fromEntries(Object.entries(parameters).map(([name, value]) => [name, sqliteValue(value)]));
}

export const sqliteExecutor: Executor = {
  query: <Row>(sql: string, parameters?: SqlParameters) => whenNotBusy(() => prepared<[Bound], Row>(sql).all(bound(parameters))),
  run: async (sql, parameters) => Number((await whenNotBusy(() => prepared<[Bound]>(sql).run(bound(parameters)))).changes),
  transaction(work) {
    return sqlitePrisma().$transaction(async (prisma) => {
      const tx: SqlRunner = {
        query: <Row>(sql: string, parameters?: SqlParameters) => {
          const { text, values } = positional(sql, parameters, 'each');
          return prisma.$queryRawUnsafe<Row[]>(text, ...values.map(sqliteValue));
        },
        run: (sql, parameters) => {
          const { text, values } = positional(sql, parameters, 'each');
          return prisma.$executeRawUnsafe(text, ...values.map(sqliteValue));
        },
      };
      return work(tx, prisma);
    });
  },
};
