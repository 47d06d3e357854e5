// The plant statements on SQLite, as prepared statements on SQLite's own connection (connection.ts),
// built into the plant store by lib/db/plant-store.ts. They read and write the same Plant table, in
// the same formats, as Prisma does. Search uses the FTS5 trigram table the migrations keep beside it
// ("PlantSearch", rowid = "seq", each name with two U+0001 characters after it: short-search.ts).
//
// Why not Prisma: these are the API's hot path. Through these statements a create's SQLite work,
// with its audit record, is a small part of its CPU, where Prisma's query interpreter and adapter
// cost about a third of it (docs/performance.md#the-api-on-sqlite); a batch's plant is mostly its
// insert (docs/performance.md#the-catalogue-on-100000-plants, the batch aim).
import 'server-only';
import { foldForSearch, usesTrigramIndex } from '../../shared/fold';
import { trigramsOf } from '../../shared/trigrams';
import { plantStoreOf } from '../plant-store';
import { LOWEST_FREE_POSITIVE_ID, MAX_PLANT_ID, PLANT_COLUMNS, PLANT_COLUMNS_OF_P, containsPattern, orderBy, pastPosition } from '../shared-sql';
import type { InsertOutcome, MaybePromise, PlantFilterValues, PlantOrder, PlantPosition, PlantQuery, PlantRow } from '../stores';
import { sqliteChangeRecords } from './change-records';
import { PHRASE_TRIGRAMS, rareTrigramsMatch } from './long-search';
import { shortTextTerms } from './short-search';
import { processWide } from '../../process-wide';
import { fromSqliteTime, groupTransaction, inLongTransaction, inTransaction, LONG_TRANSACTION_WEIGHT, othersCommitMark, prepared, toSqliteTime, whenNotBusy, type SqliteTransaction } from './connection';

type StoredRow = { seq: bigint; id: bigint; name: string; tag: string | null; createdAt: string };

// The unique index on id decides: a taken id inserts nothing and returns no row.
const INSERT = `INSERT INTO "Plant" ("id", "name", "tag", "nameFolded", "createdAt") VALUES (?, ?, ?, ?, ?) ON CONFLICT ("id") DO NOTHING RETURNING ${PLANT_COLUMNS}`;
const FIND_BY_ID = `SELECT ${PLANT_COLUMNS} FROM "Plant" WHERE "id" = ?`;
const UPDATE = `UPDATE "Plant" SET "name" = ?, "tag" = ?, "nameFolded" = ? WHERE "seq" = ? RETURNING ${PLANT_COLUMNS}`;
const DELETE = `DELETE FROM "Plant" WHERE "seq" = ?`;

// The catalogue's figures, from the counts by day and by tag that the migrations' triggers keep in
// the same statement as every change to "Plant" (prisma/migrations/*_plant_counts): a few hundred
// rows, where counting the plants read all of them three times.
const TOTAL = 'SELECT coalesce(sum("count"), 0) AS "count" FROM "PlantDayCount"';
const TAGGED = 'SELECT coalesce(sum("count"), 0) AS "count" FROM "PlantTagCount"';
const TOP_TAGS = 'SELECT "tag", "count" FROM "PlantTagCount" ORDER BY "count" DESC, "tag" LIMIT ?';
const PER_DAY = 'SELECT "day", "count" FROM "PlantDayCount" WHERE "day" >= ?';

// The changes to plants this process has written, for countStamp(): SQLite's data_version tells of
// every other connection's commits, never of this connection's own. Counted as each is written, in
// the group commit's synchronous slice, so no read runs between the change and its count (one that
// is then undone only makes the stamp move for nothing).
const written = processWide('sqlite-plant-changes-written', () => ({ changes: 0 }));

function toRow(row: StoredRow): PlantRow {
  return { seq: Number(row.seq), id: row.id, name: row.name, tag: row.tag, createdAt: fromSqliteTime(row.createdAt) };
}

// In a transaction, on its connection (SQLite has one writer, so a read there holds what it read
// until the commit), or on the first connection outside one.
const findById = (id: bigint, tx: Pick<SqliteTransaction, 'prepared'> = groupTransaction) => {
  const row = tx.prepared<[bigint], StoredRow>(FIND_BY_ID).get(id);
  return row ? toRow(row) : null;
};

/** An FTS5 string: the trigram tokenizer makes it a phrase of the text's trigrams, i.e. a substring. */
const ftsPhrase = (folded: string) => `"${folded.replaceAll('"', '""')}"`;

type Value = string | number | bigint;

/**
 * The FROM and WHERE of a list or a count. A search of three characters or more walks the trigram
 * index, in the list's order when that is the order added, and each plant it finds is checked for
 * the tag if there is one; one of more than a few trigrams walks it for its rarest two only, and
 * each plant found is checked for the text (long-search.ts, which runs statements of its own). So does one of one or two characters that none of the newest plants has,
 * through the index's terms that start with it (short-search.ts, which runs statements of its own:
 * so this runs where the list or count does); otherwise a search that short checks plants in the
 * list's order until the page is full. The trigram index leads even with a tag: with the (tag, seq)
 * index leading, a text that no plant of the tag has cost every plant of the tag read and checked,
 * where the trigram index costs the plants that have the text; for a common text (a quarter of the
 * plants) the two cost about the same (docs/performance.md#the-catalogue-on-100000-plants).
 */
function filterStatement(query: PlantFilterValues & { order?: PlantOrder; after?: PlantPosition }) {
  const conditions: string[] = [];
  const parameters: Value[] = [];
  const parameter = (value: Value) => (parameters.push(value), '?');
  let from = '"Plant" p';
  let seq = 'p."seq"';
  const byIndex = (match: string) => {
    from = '"PlantSearch" s JOIN "Plant" p ON p."seq" = s.rowid';
    seq = 's.rowid';
    conditions.push(`s."PlantSearch" MATCH ${parameter(match)}`);
  };
  if (query.folded !== undefined) {
    if (usesTrigramIndex(query.folded) && trigramsOf(query.folded).length <= PHRASE_TRIGRAMS) byIndex(ftsPhrase(query.folded));
    else if (usesTrigramIndex(query.folded)) {
      // A longer text: its rarest trigrams find the plants, each checked for the whole text
      // (long-search.ts); a trigram no plant has means no plant has the text.
      const match = rareTrigramsMatch(query.folded);
      if (match === null) conditions.push('0');
      else {
        byIndex(match);
        conditions.push(`instr(p."nameFolded", ${parameter(query.folded)}) > 0`);
      }
    } else {
      const pattern = containsPattern(query.folded);
      const terms = shortTextTerms(query.folded, query.tag, pattern);
      // Each term a phrase: the trigram tokenizer makes it that one trigram.
      if (terms?.length) byIndex(terms.map(ftsPhrase).join(' OR '));
      // No term starts with the text: no plant has it.
      else if (terms) conditions.push('0');
      conditions.push(`p."nameFolded" LIKE ${parameter(pattern)} ESCAPE '\\'`);
    }
  }
  if (query.tag !== undefined) conditions.push(`p."tag" = ${parameter(query.tag)}`);
  if (query.order && query.after) conditions.push(pastPosition(query.order, query.after, { seq }, parameter));
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  return { from, where, seq, parameters, parameter };
}

/** The SQL of a list: its filter, in its order, past its position. */
function listStatement(query: PlantQuery): { sql: string; parameters: Value[] } {
  const { from, where, seq, parameters, parameter } = filterStatement(query);
  const sql = `SELECT ${PLANT_COLUMNS_OF_P} FROM ${from}${where} ORDER BY ${orderBy(query.order, { seq })} LIMIT ${parameter(query.take)}`;
  return { sql, parameters };
}

export const sqlitePlants = plantStoreOf<SqliteTransaction>({
  // A transaction runs on the event loop: there is nothing for a next chunk to overlap.
  chunksAtOnce: 1,
  // A whole batch (at most 1,000 plants) in one transaction. A commit writes every page its plants
  // changed to the write-ahead log, and the name-order index puts each plant on a page of its own
  // place in the order, so most of a commit's time is writing pages: a larger chunk shares more of
  // them. Chunks of 1,000 store more plants a second than chunks of 250
  // (docs/performance.md#the-catalogue-on-100000-plants); their work is a long transaction, run in
  // slices (connection.ts, docs/performance.md#a-batchs-transaction-in-slices-on-sqlite).
  chunkSize: 1000,
  // A change of a few plants is a savepoint of the turn's group commit (inTransaction), run
  // synchronously: nothing else in this process runs between its statements. A larger one (a batch's)
  // is a long transaction of its own, whose work pauses between rows to let other requests run.
  transaction(work, weight) {
    if (weight > LONG_TRANSACTION_WEIGHT) return inLongTransaction(work, weight);
    return inTransaction(() => {
      const result = work(groupTransaction);
      if (result instanceof Promise) throw new Error('SQLite plant work of a group commit must be synchronous');
      return result;
    }, weight);
  },
  changeRecords: sqliteChangeRecords,
  insertMany(tx, plants, changed) {
    const now = toSqliteTime(new Date());
    const insert = tx.prepared<[bigint, string, string | null, string, string], StoredRow>(INSERT);
    const outcomes: InsertOutcome[] = [];
    const insertFrom = (start: number): MaybePromise<InsertOutcome[]> => {
      for (let index = start; index < plants.length; index++) {
        const { id, name, tag } = plants[index];
        const inserted = insert.get(id, name, tag, foldForSearch(name), now);
        if (!inserted) outcomes.push({ inserted: false, row: findById(id, tx)! });
        else {
          const row = toRow(inserted);
          written.changes++;
          changed.push({ kind: 'created', plant: row });
          outcomes.push({ inserted: true, row });
        }
        const paused = tx.pause();
        if (paused) return paused.then(() => insertFrom(index + 1));
      }
      return outcomes;
    };
    return insertFrom(0);
  },
  lockById: (tx, id) => findById(id, tx),
  update(tx, seq, { name, tag }) {
    written.changes++;
    return toRow(tx.prepared<[string, string | null, string, number], StoredRow>(UPDATE).get(name, tag, foldForSearch(name), seq)!);
  },
  delete(tx, seq) {
    written.changes++;
    tx.prepared<[number]>(DELETE).run(seq);
  },
  findById: (id) => whenNotBusy(() => findById(id)),
  async list(query) {
    const rows = await whenNotBusy(() => {
      const { sql, parameters } = listStatement(query);
      return prepared<Value[], StoredRow>(sql).all(...parameters);
    });
    return rows.map(toRow);
  },
  async count(query) {
    const row = await whenNotBusy(() => {
      const { from, where, parameters } = filterStatement(query);
      return prepared<Value[], { count: bigint }>(`SELECT count(*) AS "count" FROM ${from}${where}`).get(...parameters);
    });
    return Number(row!.count);
  },
  countStamp: () => whenNotBusy(() => `${othersCommitMark()}.${written.changes}`),
  // The triggers update the counts in the statement of every change: nothing waits to be folded.
  async unfoldedCountChanges() {
    return 0;
  },
  stats({ since, topTags: top }) {
    // One read, so the figures agree with each other.
    return whenNotBusy(() => {
      const count = (sql: string) => Number(prepared<[], { count: bigint }>(sql).get()!.count);
      return {
        total: count(TOTAL),
        tagged: count(TAGGED),
        tags: prepared<[number], { tag: string; count: bigint }>(TOP_TAGS).all(top).map((row) => ({ tag: row.tag, count: Number(row.count) })),
        perDay: prepared<[string], { day: string; count: bigint }>(PER_DAY).all(since).map((row) => ({ day: row.day, count: Number(row.count) })),
      };
    });
  },
  async maxId() {
    return (await whenNotBusy(() => prepared<[], { id: bigint | null }>(MAX_PLANT_ID).get()))?.id ?? null;
  },
  async lowestFreePositiveId() {
    return (await whenNotBusy(() => prepared<[], { id: bigint | null }>(LOWEST_FREE_POSITIVE_ID).get()))?.id ?? null;
  },
});
