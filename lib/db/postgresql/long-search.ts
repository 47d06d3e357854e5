// How PostgreSQL runs a long search (more than a few trigrams), decided here from a sample of the
// plants instead of left to the planner. pg_trgm's index answers a LIKE by reading the list of
// plants of every trigram of its text: for `orchid 5 plant 3` in a catalogue where most names are
// "orchid <n> plant <m>", a dozen lists of half a million plants each, where the plants with a
// word "5" are a few hundred (docs/performance.md#the-catalogue-on-1000000-plants). And the
// planner's choice between that index and a newest-first scan rests on statistics that a table
// just loaded does not have yet. So the plants are sampled (TABLESAMPLE SYSTEM: about SAMPLE_PAGES
// whole pages at random, at most once a second in a process; the searches plan by the last sample
// while the next is read), and from the share of sampled names that have the text, and each of
// pg_trgm's trigrams of its pieces, a search takes the cheaper of:
//
//   piece    the index asked for one piece of three characters of the text, the one whose trigrams'
//            lists and plants cost least to read, each plant found checked for the whole text, the
//            page sorted after;
//   whole    the index asked for the whole text's LIKE, the page sorted after too (plants.ts):
//            when its trigrams' lists cost less than a piece's plants (many names have each
//            trigram, few all of them), when no piece has a trigram pg_trgm is sure to index (see
//            `trigramsOfPiece`), or when the table is empty.
//
// A list in the order added of a text that the sample says is common reads the newest
// NEWEST_PLANTS plants (of the tag) first, and takes either way only when they do not fill the page.
// The check of the whole text is strpos on "nameFolded": exact, as the LIKE was, and no index
// serves it, so the planner cannot trade the chosen way for another.
import 'server-only';
import { processWide } from '../../process-wide';
import { spread, trigramsOf } from '../../shared/trigrams';
import { direct } from './direct';

/** Pages sampled: about a hundred plants each. */
const SAMPLE_PAGES = 16;
/** How long a sample serves. */
const SAMPLE_MS = 1000;
/** Texts of at most this many trigrams are searched as they were: one LIKE, the planner's choice. */
export const WHOLE_TRIGRAMS = 3;
/** At most this many of a text's pieces are weighed. */
const WEIGHED_PIECES = 24;
// What reading one entry of a trigram's list in the index costs against reading a plant found, in
// the plans of docs/performance.md#the-catalogue-on-1000000-plants.
const ENTRY_COST = 0.01;
/** How many plants of the list's order a list reads first, when the sample says the text is common. */
export const NEWEST_PLANTS = 4000;

const PERCENT = `least(100, 100.0 * ${SAMPLE_PAGES} / greatest(1, pg_relation_size('"Plant"') / 8192))`;
// The sampled names in one text (no name holds a control character), with the share of the table sampled.
const SAMPLE = `SELECT coalesce(string_agg("nameFolded", E'\\n'), '') AS "names", ${PERCENT}::float8 AS "percent"
  FROM "Plant" TABLESAMPLE SYSTEM (${PERCENT})`;

type Sample = { names: string[]; rows: number; shares: Map<string, number> };
const sampling = processWide('postgresql-search-sample', () => ({ at: 0, sample: undefined as Promise<Sample> | undefined }));

async function takeSample(): Promise<Sample> {
  const [{ names, percent }] = await direct.$queryRawUnsafe<{ names: string; percent: number }[]>(SAMPLE);
  const sampled = names === '' ? [] : names.split('\n');
  return { names: sampled, rows: (sampled.length * 100) / percent, shares: new Map() };
}

/**
 * The sample to plan by: a new one once the last is SAMPLE_MS old, waited for only when there is
 * none; meanwhile the searches plan by the last one.
 */
async function currentSample(): Promise<Sample> {
  const at = Date.now();
  const last = sampling.sample;
  if (!last || at - sampling.at >= SAMPLE_MS) {
    sampling.at = at;
    const next = takeSample();
    sampling.sample = next;
    // A failed sample is not kept: the next search tries again, with the last one meanwhile.
    next.catch(() => {
      if (sampling.sample === next) sampling.sample = last;
      if (!last) sampling.at = 0;
    });
    if (last) return last.catch(() => next);
  }
  return sampling.sample!;
}

export type LongSearchPlan = ({ way: 'piece'; piece: string } | { way: 'whole' }) & { newestFirst: boolean };

const isWord = (character: string) => /^[a-z0-9]$/.test(character);
// Not a letter or digit in any locale: pg_trgm marks a word's edge beside it.
const isMark = (character: string) => character.length === 1 && character < '\u0080' && !isWord(character);

/**
 * pg_trgm's trigrams of a LIKE of these three characters (`%abc%`), as patterns over names: it
 * indexes words (letters and digits), padded with two spaces before and one after where the text
 * shows the word's edge. Only ASCII letters and digits count as letters here, and only ASCII
 * marks as edges, since which others are letters depends on the database's locale: a piece with
 * any other character has none here, and is not used (a LIKE with no trigram reads the whole index).
 */
function trigramsOfPiece(piece: string): RegExp[] {
  const [a, b, c] = [...piece];
  const kinds = [a, b, c].map((character) => (isWord(character) ? 'w' : isMark(character) ? 'm' : '?')).join('');
  const starts = (word: string) => new RegExp(`(?:^|[^a-z0-9])${word}`);
  const ends = (word: string) => new RegExp(`${word}(?:[^a-z0-9]|$)`);
  switch (kinds) {
    case 'www':
      return [new RegExp(`${a}${b}${c}`)];
    case 'wwm':
      return [ends(`${a}${b}`)];
    case 'mww':
      return [starts(b), starts(`${b}${c}`)];
    case 'mwm':
      return [starts(b), new RegExp(`(?:^|[^a-z0-9])${b}(?:[^a-z0-9]|$)`)];
    case 'wmw':
    case 'mmw':
      return [starts(c)];
    default:
      return [];
  }
}

function share(sample: Sample, key: string, test: (name: string) => boolean): number {
  let found = sample.shares.get(key);
  if (found === undefined) {
    found = sample.names.reduce((count, name) => (test(name) ? count + 1 : count), 0) / sample.names.length;
    sample.shares.set(key, found);
  }
  return found;
}

/**
 * The way to run a search of `folded` (more than WHOLE_TRIGRAMS trigrams) for `take` plants, in
 * the order added when `byAdded`; a count takes every one (Infinity).
 */
export async function planLongSearch(folded: string, take: number, byAdded: boolean): Promise<LongSearchPlan> {
  const sample = await currentSample();
  if (sample.names.length === 0) return { way: 'whole', newestFirst: false };
  // A pattern no sampled name has counts as half a sampled name: rare, not absent.
  const least = 0.5 / sample.names.length;
  const rowsOf = (pattern: RegExp) => sample.rows * Math.max(least, share(sample, `/${pattern.source}`, (name) => pattern.test(name)));
  const plantsWith = (text: string) => sample.rows * Math.max(least, share(sample, text, (name) => name.includes(text)));
  let best: { piece: string; cost: number } | undefined;
  // The whole text's trigrams, as pg_trgm takes them: those of its pieces (as far as they can be told).
  const everyList = new Map<string, number>();
  const pieces = trigramsOf(folded);
  const weighed = spread(pieces, WEIGHED_PIECES);
  for (const { text } of weighed) {
    const patterns = trigramsOfPiece(text);
    if (patterns.length === 0) continue;
    const lists = patterns.map(rowsOf);
    patterns.forEach((pattern, index) => everyList.set(pattern.source, lists[index]));
    // The index reads every list, and the table gives up the plants that have all of them: taken
    // to be the shortest list's (not the names with the piece's three characters, which may be far
    // fewer: `t 1` gives pg_trgm only "  1", every word that starts with 1).
    const cost = ENTRY_COST * lists.reduce((sum, rows) => sum + rows, 0) + Math.min(...lists);
    if (!best || cost < best.cost) best = { piece: text, cost };
  }
  // The lists of the pieces not weighed are taken to be like those weighed.
  const whole = (ENTRY_COST * [...everyList.values()].reduce((sum, rows) => sum + rows, 0) * pieces.length) / weighed.length + plantsWith(folded);
  // Text so common that the newest NEWEST_PLANTS plants should fill the page: they are read first
  // (plants.ts), and the way above only when they do not, as when the names that have the text
  // are bunched in one part of the storage order instead of spread as the sample suggests.
  const matching = share(sample, folded, (name) => name.includes(folded));
  const newestFirst = byAdded && matching > 0 && take / matching <= NEWEST_PLANTS / 2;
  return best && best.cost < whole ? { way: 'piece', piece: best.piece, newestFirst } : { way: 'whole', newestFirst };
}
