// The plant statements as prepared statements on SQLite (see lib/db/sqlite-connection.ts). They
// read and write the same Plant table, in the same formats, as Prisma does.
import { DatabaseBusyError, fromSqliteTime, prepared, toSqliteTime, whenNotBusy } from '../db/sqlite-connection';
import { ApiError } from '../http/errors';
import type { PlantRow, PlantStore } from './store';

type StoredRow = { seq: bigint; id: bigint; name: string; tag: string | null; createdAt: string };

const COLUMNS = '"seq", "id", "name", "tag", "createdAt"';
// The unique index on id decides races: a taken id inserts nothing and returns no row.
const INSERT = `INSERT INTO "Plant" ("id", "name", "tag", "createdAt") VALUES (?, ?, ?, ?) ON CONFLICT ("id") DO NOTHING RETURNING ${COLUMNS}`;
const FIND_BY_ID = `SELECT ${COLUMNS} FROM "Plant" WHERE "id" = ?`;
const DELETE_BY_ID = `DELETE FROM "Plant" WHERE "id" = ?`;
const NEWEST = `SELECT ${COLUMNS} FROM "Plant" ORDER BY "seq" DESC LIMIT ?`;
const NEWEST_BEFORE = `SELECT ${COLUMNS} FROM "Plant" WHERE "seq" < ? ORDER BY "seq" DESC LIMIT ?`;

function toRow(row: StoredRow): PlantRow {
  return { seq: Number(row.seq), id: row.id, name: row.name, tag: row.tag, createdAt: fromSqliteTime(row.createdAt) };
}

async function run<T>(statement: () => T): Promise<T> {
  try {
    return await whenNotBusy(statement);
  } catch (error) {
    if (error instanceof DatabaseBusyError) {
      throw new ApiError('unavailable', 'The database is busy: retry in a moment', { 'Retry-After': '1' });
    }
    throw error;
  }
}

export const sqlitePlantStore: PlantStore = {
  async insert({ id, name, tag }) {
    const row = await run(() => prepared<[bigint, string, string | null, string], StoredRow>(INSERT).get(id, name, tag, toSqliteTime(new Date())));
    return row ? toRow(row) : null;
  },
  async findById(id) {
    const row = await run(() => prepared<[bigint], StoredRow>(FIND_BY_ID).get(id));
    return row ? toRow(row) : null;
  },
  async deleteById(id) {
    return (await run(() => prepared<[bigint]>(DELETE_BY_ID).run(id))).changes > 0;
  },
  async listNewestFirst({ beforeSeq, take }) {
    const rows = await run(() =>
      beforeSeq === undefined
        ? prepared<[number], StoredRow>(NEWEST).all(take)
        : prepared<[number, number], StoredRow>(NEWEST_BEFORE).all(beforeSeq, take),
    );
    return rows.map(toRow);
  },
};
