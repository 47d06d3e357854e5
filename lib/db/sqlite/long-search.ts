// A long search on SQLite (more than a few trigrams), asked of the search table by its rarest one
// or two trigrams only, each plant found then checked for the whole text. The trigram tokenizer makes a
// search's text a phrase of all its trigrams, and FTS5 reads every trigram's list of plants to
// find the phrase: for `orchid 5 plant 3` in a catalogue where most names are "orchid <n> plant
// <m>", twelve of its fourteen trigrams are in half a million names each, where " 5 " is in a few
// hundred (docs/performance.md#the-catalogue-on-1000000-plants). The plants that have the two
// rarest are few, and checking each for the text (instr, exact, as the phrase was) costs less than
// the lists of the others.
//
// How rare: the index's own vocabulary (fts5vocab) counts a term's plants by reading its whole
// list, which for a common trigram costs more than the search. So each trigram's first SAMPLE
// plants are read: fewer than that is its count; otherwise its plants are as dense in the storage
// order as in the stretch of rowids those first SAMPLE span.
import 'server-only';
import { rarest, spread, trigramsOf, type Trigram } from '../../shared/trigrams';
import { prepared } from './connection';

/** How many of a trigram's plants are read to weigh it. */
const SAMPLE = 64;
/** A rarest trigram in at most this many plants is asked for alone: checking each of them costs less than a second list. */
const ALONE_AT_MOST = 1000;
/** Texts of at most this many trigrams are asked as one phrase: weighing them costs about what it saves. */
export const PHRASE_TRIGRAMS = 3;
/** At most this many of a text's trigrams are weighed. */
const WEIGHED_TRIGRAMS = 24;

const WEIGHED = `SELECT count(*) AS "found", coalesce(min(rowid), 0) AS "low", coalesce(max(rowid), 0) AS "high" FROM (SELECT rowid FROM "PlantSearch" WHERE "PlantSearch" MATCH ? LIMIT ${SAMPLE})`;
const SPAN = 'SELECT coalesce((SELECT max("seq") FROM "Plant") - (SELECT min("seq") FROM "Plant") + 1, 0) AS "span"';

/** A phrase of the trigram alone: the tokenizer makes it that one trigram. */
const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * The FTS5 query for a long search: its rarest trigram, with the next rarest unless the first is in
 * at most ALONE_AT_MOST plants; null when a trigram is in no plant (then none has the text). Runs
 * statements: call it where the search runs.
 */
export function rareTrigramsMatch(folded: string): string | null {
  const trigrams = spread(trigramsOf(folded), WEIGHED_TRIGRAMS);
  const span = Number(prepared<[], { span: bigint | number }>(SPAN).get()!.span);
  const weigh = prepared<[string], { found: number | bigint; low: number | bigint; high: number | bigint }>(WEIGHED);
  const estimated: (Trigram & { estimate: number })[] = [];
  for (const trigram of trigrams) {
    const row = weigh.get(phrase(trigram.text))!;
    const found = Number(row.found);
    if (found === 0) return null;
    const estimate = found < SAMPLE ? found : (SAMPLE * span) / (Number(row.high) - Number(row.low) + 1);
    estimated.push({ ...trigram, estimate });
  }
  const [first, second] = rarest(estimated, 2);
  const chosen = first.estimate <= ALONE_AT_MOST || !second ? [first] : [first, second];
  return chosen.map((trigram) => phrase(trigram.text)).join(' AND ');
}
