// A search for one or two characters on SQLite, looked up in the search table instead of read plant
// by plant when few plants have them. Such text makes no trigram, but the search table holds each
// name with two U+0001 characters after it (prisma/migrations/*_search_marks_name_ends), so every
// character of a name starts one of its trigrams: the plants whose names have the text are exactly
// those of the table's terms that start with it, found in FTS5's vocabulary from the text on.
//
// Why not always: reading plants newest first stops once a page is full, after a few dozen plants
// for text many names have, where the lookup walks the terms' plants, many times slower; for text
// no name has, reading the whole catalogue is many times slower than the sample and the lookup
// (docs/performance.md#the-catalogue-on-100000-plants). So the newest plants are sampled first,
// and text that none of them has is looked up;
// when the sample was every plant (of the tag), no plant has it, and nothing more is read.
import 'server-only';
import { prepared } from './connection';

/** How many of the newest plants (of the tag, with one) are sampled for the text. */
const SAMPLE = 1024;
/** Text that starts more terms than this is read plant by plant: the MATCH would be long. */
const MAX_TERMS = 200;

const IN_SAMPLE = `SELECT EXISTS (SELECT 1 FROM (SELECT "nameFolded" FROM "Plant" ORDER BY "seq" DESC LIMIT ${SAMPLE}) WHERE "nameFolded" LIKE ? ESCAPE '\\') AS "found"`;
const IN_SAMPLE_OF_TAG = `SELECT EXISTS (SELECT 1 FROM (SELECT "nameFolded" FROM "Plant" WHERE "tag" = ? ORDER BY "seq" DESC LIMIT ${SAMPLE}) WHERE "nameFolded" LIKE ? ESCAPE '\\') AS "found"`;
// Whether the sample was every plant (of the tag): then none has the text.
const SAMPLED_ALL = `SELECT count(*) <= ${SAMPLE} AS "all" FROM (SELECT 1 FROM "Plant" LIMIT ${SAMPLE + 1})`;
const SAMPLED_ALL_OF_TAG = `SELECT count(*) <= ${SAMPLE} AS "all" FROM (SELECT 1 FROM "Plant" WHERE "tag" = ? LIMIT ${SAMPLE + 1})`;
// The search table's vocabulary, on this connection: a temp table, as it stores nothing.
const VOCABULARY = `CREATE VIRTUAL TABLE IF NOT EXISTS temp."PlantSearchTerms" USING fts5vocab(main, "PlantSearch", row)`;
const TERMS_FROM = `SELECT "term" FROM temp."PlantSearchTerms" WHERE "term" >= ? AND "term" < ? LIMIT ${MAX_TERMS + 1}`;

/** The first text after every text that starts with `text`, in code point order (SQLite's BINARY); null past the last code point. */
function pastPrefix(text: string): string | null {
  const points = [...text];
  const last = points.pop()!.codePointAt(0)!;
  if (last >= 0x10ffff) return null;
  // The next code point, past the surrogates, which no text holds alone.
  const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
  return points.join('') + String.fromCodePoint(next);
}

/**
 * For one or two characters (`folded`, as search compares it) that none of the newest plants has,
 * the search table's terms that start with them (none: no plant has them); otherwise null, and the
 * plants are read in the list's order. Runs statements: call it where the search runs.
 */
export function shortTextTerms(folded: string, tag: string | undefined, likePattern: string): string[] | null {
  const sampled = tag === undefined ? prepared<[string], { found: bigint }>(IN_SAMPLE).get(likePattern) : prepared<[string, string], { found: bigint }>(IN_SAMPLE_OF_TAG).get(tag, likePattern);
  if (sampled!.found) return null;
  const all = tag === undefined ? prepared<[], { all: bigint }>(SAMPLED_ALL).get() : prepared<[string], { all: bigint }>(SAMPLED_ALL_OF_TAG).get(tag);
  if (all!.all) return [];
  const past = pastPrefix(folded);
  if (past === null) return null;
  prepared(VOCABULARY).run();
  const terms = prepared<[string, string], { term: string }>(TERMS_FROM).all(folded, past);
  return terms.length > MAX_TERMS ? null : terms.map(({ term }) => term);
}
