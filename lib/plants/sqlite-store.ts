// The plant statements as prepared statements on SQLite (see lib/db/sqlite-connection.ts). They
// read and write the same Plant table, in the same formats, as Prisma does. Search uses the FTS5
// trigram table the migrations keep beside it ("PlantSearch", rowid = "seq").
import 'server-only';
import { anyEnabledEndpointOnSqlite, writeChangeRecordsOnSqlite } from '../change-records';
import { fromSqliteTime, inTransaction, isDatabaseBusyError, prepared, toSqliteTime, whenNotBusy } from '../db/sqlite-connection';
import { ApiError } from '../errors';
import { foldForSearch, usesTrigramIndex } from '../shared/fold';
import { LOWEST_FREE_POSITIVE_ID, containsPattern } from './shared-sql';
import type { InsertOutcome, PlantChange, PlantQuery, PlantRow, PlantStore, RecordChanges } from './store';

type StoredRow = { seq: bigint; id: bigint; name: string; tag: string | null; createdAt: string };

const COLUMNS = '"seq", "id", "name", "tag", "createdAt"';
const COLUMNS_OF_P = 'p."seq", p."id", p."name", p."tag", p."createdAt"';
// The unique index on id decides: a taken id inserts nothing and returns no row.
const INSERT = `INSERT INTO "Plant" ("id", "name", "tag", "nameFolded", "createdAt") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("id") DO NOTHING RETURNING ${COLUMNS}`;
const FIND_BY_ID = `SELECT ${COLUMNS} FROM "Plant" WHERE "id" = ?`;
const UPDATE = `UPDATE "Plant" SET "name" = ?, "tag" = ?, "nameFolded" = ? WHERE "seq" = ? RETURNING ${COLUMNS}`;
const DELETE = `DELETE FROM "Plant" WHERE "seq" = ?`;
const MAX_ID = `SELECT max("id") AS "id" FROM "Plant"`;

function toRow(row: StoredRow): PlantRow {
  return { seq: Number(row.seq), id: row.id, name: row.name, tag: row.tag, createdAt: fromSqliteTime(row.createdAt) };
}

async function answerBusy<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (isDatabaseBusyError(error)) {
      throw new ApiError('unavailable', 'The database is busy: retry in a moment', { 'Retry-After': '1' });
    }
    throw error;
  }
}

const run = <T>(statement: () => T) => answerBusy(whenNotBusy(statement));

/**
 * The one way plants change on SQLite: `work` makes its changes inside one transaction (see
 * inTransaction: a savepoint of the turn's group commit) and lists them in `changed`. Their audit
 * records and webhook events are written from that list here, before the transaction commits, so
 * a change and its records are stored together or not at all.
 */
function changePlants<T>(record: RecordChanges, work: (changed: PlantChange[]) => T, plants = 1): Promise<T> {
  return answerBusy(
    inTransaction(() => {
      const changed: PlantChange[] = [];
      const result = work(changed);
      if (changed.length > 0) writeChangeRecordsOnSqlite(record(changed, { events: anyEnabledEndpointOnSqlite() }));
      return result;
    }, plants),
  );
}

const findById = (id: bigint) => {
  const row = prepared<[bigint], StoredRow>(FIND_BY_ID).get(id);
  return row ? toRow(row) : null;
};

/** An FTS5 string: the trigram tokenizer makes it a phrase of the text's trigrams, i.e. a substring. */
const ftsPhrase = (folded: string) => `"${folded.replaceAll('"', '""')}"`;

/**
 * The SQL of a list. A search of three characters or more without a tag walks the trigram index in
 * `seq` order; with a tag, the (tag, seq) index leads and each of its rows is checked for the
 * text, which costs at most the plants of that tag; a shorter search checks plants in `seq` order
 * until the page is full.
 */
function listStatement(query: PlantQuery): { sql: string; parameters: (string | number)[] } {
  const newestFirst = query.order === 'newest-first';
  const bound = newestFirst ? query.beforeSeq : query.afterSeq;
  const conditions: string[] = [];
  const parameters: (string | number)[] = [];
  let from = '"Plant" p';
  let seq = 'p."seq"';
  if (query.folded !== undefined) {
    if (query.tag === undefined && usesTrigramIndex(query.folded)) {
      from = '"PlantSearch" s JOIN "Plant" p ON p."seq" = s.rowid';
      seq = 's.rowid';
      conditions.push('s."PlantSearch" MATCH ?');
      parameters.push(ftsPhrase(query.folded));
    } else {
      conditions.push(`p."nameFolded" LIKE ? ESCAPE '\\'`);
      parameters.push(containsPattern(query.folded));
    }
  }
  if (query.tag !== undefined) {
    conditions.push('p."tag" = ?');
    parameters.push(query.tag);
  }
  if (bound !== undefined) {
    conditions.push(`${seq} ${newestFirst ? '<' : '>'} ?`);
    parameters.push(bound);
  }
  parameters.push(query.take);
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { sql: `SELECT ${COLUMNS_OF_P} FROM ${from}${where} ORDER BY ${seq} ${newestFirst ? 'DESC' : 'ASC'} LIMIT ?`, parameters };
}

export const sqlitePlantStore: PlantStore = {
  insertMany(plants, record) {
    const now = toSqliteTime(new Date());
    return changePlants(record, (changed) =>
      plants.map(({ id, name, tag }): InsertOutcome => {
        const inserted = prepared<[bigint, string, string | null, string, string], StoredRow>(INSERT).get(id, name, tag, foldForSearch(name), now);
        if (!inserted) return { inserted: false, row: findById(id)! };
        const row = toRow(inserted);
        changed.push({ kind: 'created', plant: row });
        return { inserted: true, row };
      }),
      plants.length,
    );
  },
  update(id, change, record) {
    return changePlants(record, (changed) => {
      const current = findById(id);
      const next = change(current);
      if (!current) throw new Error('update: change() must refuse a missing plant');
      if (next.name === current.name && next.tag === current.tag) return current;
      const stored = prepared<[string, string | null, string, number], StoredRow>(UPDATE).get(next.name, next.tag, foldForSearch(next.name), current.seq);
      const row = toRow(stored!);
      changed.push({ kind: 'updated', plant: row, previous: current });
      return row;
    });
  },
  delete(id, check, record) {
    return changePlants(record, (changed) => {
      const current = findById(id);
      check(current);
      if (!current) throw new Error('delete: check() must refuse a missing plant');
      prepared<[number]>(DELETE).run(current.seq);
      changed.push({ kind: 'deleted', previous: current });
      return current;
    });
  },
  findById(id) {
    return run(() => findById(id));
  },
  async list(query) {
    const { sql, parameters } = listStatement(query);
    const rows = await run(() => prepared<(string | number)[], StoredRow>(sql).all(...parameters));
    return rows.map(toRow);
  },
  async maxId() {
    return (await run(() => prepared<[], { id: bigint | null }>(MAX_ID).get()))?.id ?? null;
  },
  async lowestFreePositiveId() {
    const row = await run(() => prepared<[], { id: bigint | null }>(LOWEST_FREE_POSITIVE_ID).get());
    if (row?.id == null) throw new Error('every positive int64 id is taken');
    return row.id;
  },
};
