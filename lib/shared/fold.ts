// How search compares names. Both engines must answer a search alike, and neither engine's own
// idea of case will do: SQLite's lower() folds ASCII only, PostgreSQL's follows the server's
// locale. So this one function folds every name as it is stored (the `nameFolded` column) and
// every query, and the database only ever looks for folded text inside folded text, exactly.

// Lowercase alone leaves these apart from their uppercase forms (Unicode's case folding joins
// them): ß folds to "ss" as ẞ and SS do; the final sigma ς to σ, since where a word ends in a name
// and in a query differs; and İ would lowercase to i plus a combining dot that "i" cannot match.
const FOLDED_AFTER_LOWERCASE: Record<string, string> = { ß: 'ss', ς: 'σ', 'i\u0307': 'i' };
const AFTER_LOWERCASE = /ß|ς|i\u0307/g;

/**
 * The text as search compares it: NFKC first (full-width letters, ligatures such as ﬁ, and a
 * precomposed é against e + combining accent all compare equal), then Unicode lowercase, which in
 * JavaScript does not depend on a locale, then the three foldings above. Accents stay significant
 * (é is not e), as do spaces and punctuation.
 */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(AFTER_LOWERCASE, (found) => FOLDED_AFTER_LOWERCASE[found]);
}

/**
 * Whether a folded search is long enough for a trigram index (FTS5's trigram tokenizer on SQLite,
 * pg_trgm on PostgreSQL): one or two characters make no trigram, so those are matched by reading
 * the plants newest first instead. Both count code points, not UTF-16 units.
 */
export function usesTrigramIndex(folded: string): boolean {
  return [...folded].length >= 3;
}
