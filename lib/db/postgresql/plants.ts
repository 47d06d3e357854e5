// The plant statements on PostgreSQL, as SQL straight through node-postgres on the pool under
// Prisma's client (direct.ts), built into the plant store by lib/db/plant-store.ts. A batch chunk is
// inserted with one statement (unnest), at places in the storage order it reserves first when chunks
// overlap (chunksAtOnce), and search uses two GIN indexes on "nameFolded": pg_trgm's for three
// characters or more, plant_name_pairs's for two; one character is LIKE alone.
//
// Why raw SQL: Prisma's query API cannot say what these need. A batch chunk of 250 plants is one
// round trip (one INSERT ... SELECT FROM unnest ... ON CONFLICT DO NOTHING RETURNING), and batches
// meet their target with one client; a search asks the trigram and plant_name_pairs indexes, and
// meets its target over the search mix on 100,000 plants at 8 connections
// (docs/performance.md#targets, docs/performance.md#the-catalogue-on-100000-plants); a change reads
// its plant FOR UPDATE, so concurrent changes to one plant take turns.
import 'server-only';
import { processWide } from '../../process-wide';
import { now } from '../../shared/clock';
import { foldForSearch, usesTrigramIndex } from '../../shared/fold';
import { insertsTogether } from '../inserts-together';
import { plantStoreOf } from '../plant-store';
import { LOWEST_FREE_POSITIVE_ID, MAX_PLANT_ID, PLANT_COLUMNS, PLANT_COLUMNS_OF_P, containsPattern, orderBy, pastPosition } from '../shared-sql';
import type { InsertOutcome, PlantChange, PlantFilterValues, PlantOrder, PlantPosition, PlantQuery, PlantValues } from '../stores';
import { postgresqlChangeRecords } from './change-records';
import { direct, directTransaction, type Queryable } from './direct';
import { NEWEST_PLANTS, planLongSearch, WHOLE_TRIGRAMS, type LongSearchPlan } from './long-search';
import { notePlantsWritten } from './plant-statistics';
import { trigramsOf } from '../../shared/trigrams';

type StoredRow = { seq: number; id: bigint; name: string; tag: string | null; createdAt: Date };

// Ids travel as text and are cast in SQL, so none passes through a JavaScript number. The
// unique index on id decides: a taken id (by a stored plant or an earlier item) inserts nothing.
const INSERT_MANY = `INSERT INTO "Plant" ("id", "name", "tag", "nameFolded")
  SELECT "id", "name", "tag", "nameFolded"
  FROM unnest($1::text[]::bigint[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS item("id", "name", "tag", "nameFolded", "position")
  ORDER BY "position"
  ON CONFLICT ("id") DO NOTHING
  RETURNING ${PLANT_COLUMNS}`;
// The same, each plant at a place reserved for it (RESERVE_PLACES) instead of the next one free.
const INSERT_MANY_AT = `INSERT INTO "Plant" ("seq", "id", "name", "tag", "nameFolded")
  SELECT "seq", "id", "name", "tag", "nameFolded"
  FROM unnest($1::text[]::bigint[], $2::text[], $3::text[], $4::text[], $5::int[]) WITH ORDINALITY AS item("id", "name", "tag", "nameFolded", "seq", "position")
  ORDER BY "position"
  ON CONFLICT ("id") DO NOTHING
  RETURNING ${PLANT_COLUMNS}`;
// Places in the storage order, ascending: one statement, so none is taken by another session in
// between ones of its own that it would then precede.
const RESERVE_PLACES = `SELECT nextval(pg_get_serial_sequence('"Plant"', 'seq'))::int AS "seq" FROM generate_series(1, $1::int) ORDER BY 1`;
const FIND_MANY = `SELECT ${PLANT_COLUMNS} FROM "Plant" WHERE "id" = ANY($1::text[]::bigint[])`;
const FIND_BY_ID = `SELECT ${PLANT_COLUMNS} FROM "Plant" WHERE "id" = $1::text::bigint`;
const LOCK_BY_ID = `${FIND_BY_ID} FOR UPDATE`;
const UPDATE = `UPDATE "Plant" SET "name" = $1, "tag" = $2, "nameFolded" = $3 WHERE "seq" = $4 RETURNING ${PLANT_COLUMNS}`;
const DELETE = `DELETE FROM "Plant" WHERE "seq" = $1`;

// The catalogue's figures (GET /stats), from the counts by day and by tag that statement triggers
// keep (prisma/postgresql/migrations/*_plant_counts), plus the changes the triggers appended since
// they were last folded into the counts. Counting the plants instead cost many times the target's
// p99 at 8 connections on 100,000 plants (docs/performance.md#the-catalogue-on-100000-plants). One
// statement reads every figure, so it sees the counts and the changes of one moment (a fold commits
// both at once). Days are ordered by the caller; tags here, largest first, ties in the database's
// collation.
const FIGURES = `WITH
  "days" AS (
    SELECT "day", sum("count") AS "count" FROM (
      SELECT "day", "count" FROM "PlantDayCount" UNION ALL SELECT "day", "change" FROM "PlantCountChange"
    ) AS "counts" GROUP BY "day"
  ),
  "tags" AS (
    SELECT "tag", sum("count") AS "count" FROM (
      SELECT "tag", "count" FROM "PlantTagCount" UNION ALL SELECT "tag", "change" FROM "PlantCountChange" WHERE "tag" IS NOT NULL
    ) AS "counts" GROUP BY "tag"
  )
  SELECT 'total' AS "kind", NULL AS "key", coalesce(sum("count"), 0) AS "count" FROM "days"
  UNION ALL SELECT 'day', "day", "count" FROM "days" WHERE "day" >= $1 AND "count" <> 0
  UNION ALL SELECT 'tagged', NULL, coalesce(sum("count"), 0) FROM "tags"
  UNION ALL (SELECT 'tag', "tag", "count" FROM "tags" WHERE "count" > 0 ORDER BY "count" DESC, "tag" LIMIT $2)
  ORDER BY "kind", "count" DESC, "key"`;
type FigureRow = { kind: 'total' | 'day' | 'tagged' | 'tag'; key: string | null; count: bigint };

// Any fixed number: the advisory lock that lets one caller at a time fold the changes.
const FOLD_LOCK = 0x636f756e74; // "count"
// Moves the appended changes into the counts, in one statement, by whoever holds the lock (the
// others read changes and counts as they are), and adds how many it moved to the stamp's folded
// changes (*_plant_count_stamp). A count that reaches zero stays, as a zero.
const FOLD_CHANGES = `WITH "lock" AS (SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS "held"),
  "moved" AS (DELETE FROM "PlantCountChange" WHERE (SELECT "held" FROM "lock") RETURNING "day", "tag", "change"),
  "days" AS (
    INSERT INTO "PlantDayCount" AS c ("day", "count") SELECT "day", sum("change") FROM "moved" GROUP BY "day"
    ON CONFLICT ("day") DO UPDATE SET "count" = c."count" + EXCLUDED."count"
  ),
  "tags" AS (
    INSERT INTO "PlantTagCount" AS c ("tag", "count") SELECT "tag", sum("change") FROM "moved" WHERE "tag" IS NOT NULL GROUP BY "tag"
    ON CONFLICT ("tag") DO UPDATE SET "count" = c."count" + EXCLUDED."count"
  ),
  "stamped" AS (
    UPDATE "PlantCountStamp" SET "changes" = "changes" + (SELECT count(*) FROM "moved") WHERE EXISTS (SELECT FROM "moved")
  )
  SELECT count(*) AS "folded" FROM "moved"`;
// The stamp of countStamp(): folded and appended changes, read in one snapshot.
const COUNT_STAMP = `SELECT "id" || '.' || ("changes" + (SELECT count(*) FROM "PlantCountChange")) AS "stamp" FROM "PlantCountStamp"`;

// Reading adds the changes up anyway, so folding is only to keep them few: a reader folds at most
// once a second in each process (a dashboard's callers at once fold once, and wait for nothing).
const FOLD_INTERVAL_MS = 1000;
const fold = processWide('plant-count-fold', () => ({ lastAt: 0 }));

async function foldCountChangesNowAndThen(): Promise<void> {
  const at = now();
  if (at - fold.lastAt < FOLD_INTERVAL_MS) return;
  fold.lastAt = at;
  await direct.$queryRawUnsafe(FOLD_CHANGES);
}

// A row whose id was taken when we inserted, then freed by a delete before we could read it:
// inserting it again is right, and rare enough that a few attempts always settle it.
const INSERT_ATTEMPTS = 3;

const query = (on: Queryable, sql: string, ...values: unknown[]) => on.$queryRawUnsafe<StoredRow[]>(sql, ...values);

async function insertOnce(tx: Queryable, plants: PlantValues[], places: number[] | undefined): Promise<StoredRow[]> {
  const columns = [
    plants.map((plant) => plant.id.toString()),
    plants.map((plant) => plant.name),
    plants.map((plant) => plant.tag),
    plants.map((plant) => foldForSearch(plant.name)),
  ];
  return places ? query(tx, INSERT_MANY_AT, ...columns, places) : query(tx, INSERT_MANY, ...columns);
}

async function insertMany(tx: Queryable, plants: PlantValues[], changed: PlantChange[], places?: number[]): Promise<InsertOutcome[]> {
  const outcomes: InsertOutcome[] = new Array(plants.length);
  let pending = plants.map((_, index) => index);
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt === INSERT_ATTEMPTS) throw new Error('insertMany: ids kept changing between insert and read');
    const made = new Map(
      (await insertOnce(tx, pending.map((index) => plants[index]), places && pending.map((index) => places[index]))).map((row) => [row.id, row]),
    );
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
  // The planner's statistics follow a load (plant-statistics.ts).
  notePlantsWritten(outcomes.filter((outcome) => outcome.inserted).length);
  return outcomes;
}

type Value = string | number;

/** Two characters to search for, with no tag: the index of plant_name_pairs finds them. */
const pairAlone = (query: PlantFilterValues) =>
  query.folded !== undefined && query.tag === undefined && !usesTrigramIndex(query.folded) && [...query.folded].length === 2;

/** A text of more than a few trigrams: long-search.ts plans it. */
const isLong = (query: PlantFilterValues) => query.folded !== undefined && trigramsOf(query.folded).length > WHOLE_TRIGRAMS;

/**
 * The WHERE of a list or a count; PostgreSQL's planner picks between the trigram, pairs, (tag, seq),
 * seq, id and (nameFolded, seq) indexes, except for a long text, whose way `plan` says.
 */
function filterStatement(query: PlantFilterValues & { order?: PlantOrder; after?: PlantPosition }, plan?: LongSearchPlan) {
  const conditions: string[] = [];
  const parameters: Value[] = [];
  // Ids travel as text, cast in SQL (as everywhere in this engine).
  const parameter = (value: Value | bigint) => (typeof value === 'bigint' ? `$${parameters.push(value.toString())}::text::bigint` : `$${parameters.push(value)}`);
  // pg_trgm serves LIKE from its GIN index when the text has a trigram (three characters or more).
  // Two characters are also looked up among each name's pairs of adjacent characters, in the index
  // of plant_name_pairs (its migration, *_search_pairs, says why). LIKE stays beside that test: it
  // is the cheaper of the two to run on a row, so a newest-first scan, which the planner prefers
  // for a common pair, runs the function only on the rows LIKE keeps. One character is LIKE alone:
  // nearly every name has it, and the newest-first scan fills a page after a few rows. With a tag,
  // the planner lets the (tag, seq) index lead and LIKE alone checks the tag's plants: the function
  // on each of them cost many times what LIKE does (docs/performance.md#the-catalogue-on-100000-plants).
  if (query.folded !== undefined) {
    if (plan?.way === 'piece') {
      conditions.push(`p."nameFolded" LIKE ${parameter(containsPattern(plan.piece))} ESCAPE '\\'`);
      conditions.push(`strpos(p."nameFolded", ${parameter(query.folded)}) > 0`);
    } else {
      conditions.push(`p."nameFolded" LIKE ${parameter(containsPattern(query.folded))} ESCAPE '\\'`);
      if (pairAlone(query)) conditions.push(`plant_name_pairs(p."nameFolded") @> ARRAY[${parameter(query.folded)}]::text[]`);
    }
  }
  // With a long text's piece, the tag is checked on the plants the piece finds, never looked up in
  // the (tag, seq) index (IS NOT DISTINCT FROM is the same test for a tag, and no index serves it):
  // with no statistics, the planner added the tag's every plant from that index to the piece's.
  if (query.tag !== undefined) conditions.push(plan?.way === 'piece' ? `p."tag" IS NOT DISTINCT FROM ${parameter(query.tag)}` : `p."tag" = ${parameter(query.tag)}`);
  if (query.order && query.after) conditions.push(pastPosition(query.order, query.after, { seq: 'p."seq"' }, parameter));
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { where, parameters, parameter };
}

/**
 * The SQL of a list: its filter, in its order, past its position. The plants a long text finds
 * (its piece's or its whole LIKE's) are gathered first (MATERIALIZED), then sorted: the planner
 * cannot walk an index in the list's order instead. It took that for cheaper after a load, with no
 * statistics yet, and with them too for text it reckons common: a newest-first scan expects a page
 * after a few hundred plants, and reads most of the table when the plants that have the text are
 * bunched in an older part of it (docs/performance.md#the-catalogue-on-1000000-plants).
 */
export function listStatement(query: PlantQuery, plan?: LongSearchPlan): { sql: string; parameters: Value[] } {
  const { where, parameters, parameter } = filterStatement(query, plan);
  const order = orderBy(query.order, { seq: 'p."seq"' });
  const sql =
    plan !== undefined
      ? `WITH "found" AS MATERIALIZED (SELECT ${PLANT_COLUMNS_OF_P}, p."nameFolded" FROM "Plant" p${where}) SELECT ${PLANT_COLUMNS_OF_P} FROM "found" p ORDER BY ${order} LIMIT ${parameter(query.take)}`
      : `SELECT ${PLANT_COLUMNS_OF_P} FROM "Plant" p${where} ORDER BY ${order} LIMIT ${parameter(query.take)}`;
  return { sql, parameters };
}

/** A list in the order added of the first NEWEST_PLANTS plants in that order (of the tag, past the position) that have the text. */
function newestFirstStatement(query: PlantQuery): { sql: string; parameters: Value[] } {
  const { where, parameters, parameter } = filterStatement({ tag: query.tag, order: query.order, after: query.after });
  const order = orderBy(query.order, { seq: 'p."seq"' });
  const sql = `SELECT ${PLANT_COLUMNS_OF_P} FROM (SELECT ${PLANT_COLUMNS_OF_P}, p."nameFolded" FROM "Plant" p${where} ORDER BY ${order} LIMIT ${NEWEST_PLANTS}) p
    WHERE strpos(p."nameFolded", ${parameter(query.folded!)}) > 0 ORDER BY ${order} LIMIT ${parameter(query.take)}`;
  return { sql, parameters };
}

// Creates that arrive together share a transaction (lib/db/inserts-together.ts).
export const postgresqlPlants = insertsTogether(plantStoreOf<Queryable>({
  // While a chunk is still at work (inserting, writing its records, committing), the next inserts
  // its plants: the database and this process work at the same time instead of in turn
  // (docs/decisions.md, A batch's chunks on PostgreSQL).
  chunksAtOnce: 2,
  // Smaller chunks overlap more: chunks of 250 stored more plants a second than chunks of 1,000
  // (docs/performance.md#the-catalogue-on-100000-plants).
  chunkSize: 250,
  // A transaction on a connection of the pool under Prisma's client, which waits for a connection
  // and for each lock at most as long as a write on SQLite waits for the file (direct.ts).
  transaction: (work) => directTransaction(work),
  changeRecords: postgresqlChangeRecords,
  insertMany,
  async reservePlaces(tx, count) {
    const rows = await tx.$queryRawUnsafe<{ seq: number }[]>(RESERVE_PLACES, count);
    return rows.map((row) => row.seq);
  },
  async lockById(tx, id) {
    const [current = null] = await query(tx, LOCK_BY_ID, id.toString());
    return current;
  },
  async update(tx, seq, { name, tag }) {
    const [row] = await query(tx, UPDATE, name, tag, foldForSearch(name), seq);
    notePlantsWritten(1);
    return row;
  },
  async delete(tx, seq) {
    await tx.$executeRawUnsafe(DELETE, seq);
  },
  async findById(id) {
    const [row = null] = await query(direct, FIND_BY_ID, id.toString());
    return row;
  },
  async list(plantQuery) {
    const plan = isLong(plantQuery) ? await planLongSearch(plantQuery.folded!, plantQuery.take, plantQuery.order.key === 'created') : undefined;
    if (plan?.newestFirst) {
      // The first plants in the list's order (of the tag, past the position), each checked for the
      // text: when they fill the page, it is the page (long-search.ts).
      const { sql, parameters } = newestFirstStatement(plantQuery);
      const rows = await query(direct, sql, ...parameters);
      if (rows.length === plantQuery.take) return rows;
    }
    const { sql, parameters } = listStatement(plantQuery, plan);
    return query(direct, sql, ...parameters);
  },
  async count(plantQuery) {
    const plan = isLong(plantQuery) ? await planLongSearch(plantQuery.folded!, Infinity, false) : undefined;
    const { where, parameters } = filterStatement(plantQuery, plan);
    const sql = `SELECT count(*) AS "count" FROM "Plant" p${where}`;
    if (!pairAlone(plantQuery)) {
      const [row] = await direct.$queryRawUnsafe<{ count: bigint }[]>(sql, ...parameters);
      return Number(row.count);
    }
    // Two characters: once the table has statistics, the planner counts a common pair by reading
    // every plant and running plant_name_pairs on each one LIKE keeps; through the index of
    // plant_name_pairs a common pair (`er`) is counted as quickly as by LIKE alone on every plant,
    // and a rare one (`qx`) many times more quickly
    // (docs/performance.md#the-catalogue-on-100000-plants). So the count is told to use the index.
    const [row] = await directTransaction(async (tx) => {
      await tx.$executeRawUnsafe('SET LOCAL enable_seqscan = off');
      return tx.$queryRawUnsafe<{ count: bigint }[]>(sql, ...parameters);
    });
    return Number(row.count);
  },
  async countStamp() {
    await foldCountChangesNowAndThen();
    const [row] = await direct.$queryRawUnsafe<{ stamp: string }[]>(COUNT_STAMP);
    return row.stamp;
  },
  async stats({ since, topTags: top }) {
    await foldCountChangesNowAndThen();
    const rows = await direct.$queryRawUnsafe<FigureRow[]>(FIGURES, since, top);
    const all = (kind: FigureRow['kind']) => Number(rows.find((row) => row.kind === kind)?.count ?? 0);
    const each = (kind: FigureRow['kind']) => rows.filter((row) => row.kind === kind).map((row) => ({ key: row.key!, count: Number(row.count) }));
    return {
      total: all('total'),
      tagged: all('tagged'),
      tags: each('tag').map(({ key, count }) => ({ tag: key, count })),
      perDay: each('day').map(({ key, count }) => ({ day: key, count })),
    };
  },
  async unfoldedCountChanges() {
    const [row] = await direct.$queryRawUnsafe<{ count: bigint }[]>('SELECT count(*) AS "count" FROM "PlantCountChange"');
    return Number(row.count);
  },
  async maxId() {
    const [row] = await direct.$queryRawUnsafe<{ id: bigint | null }[]>(MAX_PLANT_ID);
    return row?.id ?? null;
  },
  async lowestFreePositiveId() {
    const [row] = await direct.$queryRawUnsafe<{ id: bigint | number | null }[]>(LOWEST_FREE_POSITIVE_ID);
    return row?.id == null ? null : BigInt(row.id);
  },
}));
