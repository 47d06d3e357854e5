// The plant statements as SQL through Prisma's client (used on PostgreSQL). A batch is inserted
// with one statement per chunk (unnest), and search uses two GIN indexes on "nameFolded": pg_trgm's
// for three characters or more, plant_short_grams's for one or two.
import 'server-only';
import { insertChangeRecordsOnPostgresql } from '../change-records';
import { db, type Client } from '../db/client';
import { ApiError } from '../errors';
import { foldForSearch, usesTrigramIndex } from '../shared/fold';
import type { InsertOutcome, PlantChange, PlantQuery, PlantStore, PlantValues, RecordChanges } from './store';
import { LOWEST_FREE_POSITIVE_ID, containsPattern } from './shared-sql';

type Queryable = Pick<Client, '$queryRawUnsafe' | '$executeRawUnsafe'>;
type StoredRow = { seq: number; id: bigint; name: string; tag: string | null; createdAt: Date };

// Waiting for a pooled connection counts against maxWait; as long as a plain query may wait.
const TRANSACTION_OPTIONS = { maxWait: 5000, timeout: 15_000 };
const COLUMNS = '"seq", "id", "name", "tag", "createdAt"';
const COLUMNS_OF_P = 'p."seq", p."id", p."name", p."tag", p."createdAt"';

// Ids travel as text and are cast in SQL, so none passes through a JavaScript number. The
// unique index on id decides: a taken id (by a stored plant or an earlier item) inserts nothing.
const INSERT_MANY = `INSERT INTO "Plant" ("id", "name", "tag", "nameFolded")
  SELECT "id", "name", "tag", "nameFolded"
  FROM unnest($1::text[]::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS item("id", "name", "tag", "nameFolded", "position")
  ORDER BY "position"
  ON CONFLICT ("id") DO NOTHING
  RETURNING ${COLUMNS}`;
const FIND_MANY = `SELECT ${COLUMNS} FROM "Plant" WHERE "id" = ANY($1::text[]::bigint[])`;
const FIND_BY_ID = `SELECT ${COLUMNS} FROM "Plant" WHERE "id" = $1::text::bigint`;
const LOCK_BY_ID = `${FIND_BY_ID} FOR UPDATE`;
const UPDATE = `UPDATE "Plant" SET "name" = $1, "tag" = $2, "nameFolded" = $3 WHERE "seq" = $4 RETURNING ${COLUMNS}`;
const DELETE = `DELETE FROM "Plant" WHERE "seq" = $1`;
const MAX_ID = `SELECT max("id") AS "id" FROM "Plant"`;

// A row whose id was taken when we inserted, then freed by a delete before we could read it:
// inserting it again is right, and rare enough that a few attempts always settle it.
const INSERT_ATTEMPTS = 3;

function isTransactionTimeout(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2028';
}

/**
 * The one way plants change on PostgreSQL: `work` makes its changes inside one transaction and
 * lists them in `changed`. Their audit records and webhook events are written from that list here,
 * through `tx` (one statement for all of them), before the transaction commits, so a change and
 * its records are stored together or not at all.
 */
async function changePlants<T>(record: RecordChanges, work: (tx: Queryable, changed: PlantChange[]) => Promise<T>): Promise<T> {
  try {
    return await db().$transaction(async (tx) => {
      const changed: PlantChange[] = [];
      const result = await work(tx, changed);
      // The events statement keeps them only if an endpoint is enabled (one round trip either way).
      if (changed.length > 0) await insertChangeRecordsOnPostgresql(tx, record(changed, { events: true }));
      return result;
    }, TRANSACTION_OPTIONS);
  } catch (error) {
    if (isTransactionTimeout(error)) {
      throw new ApiError('unavailable', 'The database is busy: retry in a moment', { 'Retry-After': '1' });
    }
    throw error;
  }
}

const query = (on: Queryable, sql: string, ...values: unknown[]) => on.$queryRawUnsafe<StoredRow[]>(sql, ...values);

async function insertOnce(tx: Queryable, plants: PlantValues[]): Promise<StoredRow[]> {
  return query(
    tx,
    INSERT_MANY,
    plants.map((plant) => plant.id.toString()),
    plants.map((plant) => plant.name),
    plants.map((plant) => plant.tag),
    plants.map((plant) => foldForSearch(plant.name)),
  );
}

async function insertMany(tx: Queryable, plants: PlantValues[], changed: PlantChange[]): Promise<InsertOutcome[]> {
  const outcomes: InsertOutcome[] = new Array(plants.length);
  let pending = plants.map((_, index) => index);
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === INSERT_ATTEMPTS) throw new Error('insertMany: ids kept changing between insert and read');
    const made = new Map((await insertOnce(tx, pending.map((index) => plants[index]))).map((row) => [row.id, row]));
    const taken: number[] = [];
    for (const index of pending) {
      const row = made.get(plants[index].id);
      if (!row) {
        taken.push(index);
        continue;
      }
      // Only the first item with an id made its row; a later one finds it taken, as it would
      // have had the items been sent one by one.
      made.delete(row.id);
      outcomes[index] = { inserted: true, row };
      changed.push({ kind: 'created', plant: row });
    }
    if (taken.length === 0) break;
    const holders = new Map((await query(tx, FIND_MANY, taken.map((index) => plants[index].id.toString()))).map((row) => [row.id, row]));
    pending = taken.filter((index) => {
      const row = holders.get(plants[index].id);
      if (row) outcomes[index] = { inserted: false, row };
      return !row;
    });
  }
  return outcomes;
}

/** The SQL of a list; PostgreSQL's planner picks between the trigram, (tag, seq) and seq indexes. */
function listStatement(query: PlantQuery): { sql: string; parameters: (string | number)[] } {
  const newestFirst = query.order === 'newest-first';
  const bound = newestFirst ? query.beforeSeq : query.afterSeq;
  const conditions: string[] = [];
  const parameters: (string | number)[] = [];
  const parameter = (value: string | number) => `$${parameters.push(value)}`;
  // pg_trgm serves LIKE from its GIN index when the text has a trigram (three characters or more).
  // One or two characters are also looked up among each name's characters and pairs of characters,
  // in the index of plant_short_grams (its migration, *_short_search_grams, says why). LIKE stays
  // beside that test: it is the cheaper of the two to run on a row, so a newest-first scan, which
  // the planner prefers for a common character, runs the function only on the rows LIKE keeps.
  if (query.folded !== undefined) {
    conditions.push(`p."nameFolded" LIKE ${parameter(containsPattern(query.folded))} ESCAPE '\\'`);
    if (!usesTrigramIndex(query.folded)) conditions.push(`plant_short_grams(p."nameFolded") @> ARRAY[${parameter(query.folded)}]::text[]`);
  }
  if (query.tag !== undefined) conditions.push(`p."tag" = ${parameter(query.tag)}`);
  if (bound !== undefined) conditions.push(`p."seq" ${newestFirst ? '<' : '>'} ${parameter(bound)}`);
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  const sql = `SELECT ${COLUMNS_OF_P} FROM "Plant" p${where} ORDER BY p."seq" ${newestFirst ? 'DESC' : 'ASC'} LIMIT ${parameter(query.take)}`;
  return { sql, parameters };
}

export const prismaPlantStore: PlantStore = {
  insertMany(plants, record) {
    return changePlants(record, (tx, changed) => insertMany(tx, plants, changed));
  },
  update(id, change, record) {
    return changePlants(record, async (tx, changed) => {
      const [current = null] = await query(tx, LOCK_BY_ID, id.toString());
      const next = change(current);
      if (!current) throw new Error('update: change() must refuse a missing plant');
      if (next.name === current.name && next.tag === current.tag) return current;
      const [row] = await query(tx, UPDATE, next.name, next.tag, foldForSearch(next.name), current.seq);
      changed.push({ kind: 'updated', plant: row, previous: current });
      return row;
    });
  },
  delete(id, check, record) {
    return changePlants(record, async (tx, changed) => {
      const [current = null] = await query(tx, LOCK_BY_ID, id.toString());
      check(current);
      if (!current) throw new Error('delete: check() must refuse a missing plant');
      await tx.$executeRawUnsafe(DELETE, current.seq);
      changed.push({ kind: 'deleted', previous: current });
      return current;
    });
  },
  async findById(id) {
    const [row = null] = await query(db(), FIND_BY_ID, id.toString());
    return row;
  },
  list(plantQuery) {
    const { sql, parameters } = listStatement(plantQuery);
    return query(db(), sql, ...parameters);
  },
  async maxId() {
    const [row] = await db().$queryRawUnsafe<{ id: bigint | null }[]>(MAX_ID);
    return row?.id ?? null;
  },
  async lowestFreePositiveId() {
    const [row] = await db().$queryRawUnsafe<{ id: bigint | null }[]>(LOWEST_FREE_POSITIVE_ID);
    if (row?.id == null) throw new Error('every positive int64 id is taken');
    return BigInt(row.id);
  },
};
