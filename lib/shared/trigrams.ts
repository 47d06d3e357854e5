// The trigrams of a folded search (three code points each, as FTS5's trigram tokenizer cuts them),
// each once, with where in the text it first starts: what the engines' planning of a long search
// weighs (lib/db/sqlite/long-search.ts, lib/db/postgresql/long-search.ts).

export type Trigram = { text: string; at: number };

export function trigramsOf(folded: string): Trigram[] {
  const points = [...folded];
  const seen = new Map<string, Trigram>();
  for (let at = 0; at + 3 <= points.length; at++) {
    const text = points.slice(at, at + 3).join('');
    if (!seen.has(text)) seen.set(text, { text, at });
  }
  return [...seen.values()];
}

/** The `count` rarest of `estimated` (lowest estimate first; ties in the text's order). */
export function rarest<T extends Trigram & { estimate: number }>(estimated: T[], count: number): T[] {
  return [...estimated].sort((a, b) => a.estimate - b.estimate || a.at - b.at).slice(0, count);
}

/**
 * At most `count` of `trigrams`, spread evenly over the text: a long text's rarest trigram is
 * sought among these, so that weighing them costs no more for a text of 200 characters than for
 * one of 26.
 */
export function spread<T>(trigrams: T[], count: number): T[] {
  if (trigrams.length <= count) return trigrams;
  return Array.from({ length: count }, (_, index) => trigrams[Math.floor((index * trigrams.length) / count)]);
}
