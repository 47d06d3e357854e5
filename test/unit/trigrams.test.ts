// The trigrams a long search is planned by (lib/shared/trigrams.ts): cut by code points, each once,
// the rarest with one that does not overlap it, and a long text's spread evenly.
import { describe, expect, it } from 'vitest';
import { rarestPair, spread, trigramsOf } from '../../lib/shared/trigrams';

describe('trigramsOf', () => {
  it('cuts a text into trigrams of code points, each once where it first starts', () => {
    expect(trigramsOf('abcabc')).toEqual([
      { text: 'abc', at: 0 },
      { text: 'bca', at: 1 },
      { text: 'cab', at: 2 },
    ]);
    expect(trigramsOf('🪴🌵 a')).toEqual([
      { text: '🪴🌵 ', at: 0 },
      { text: '🌵 a', at: 1 },
    ]);
    expect(trigramsOf('ab')).toEqual([]);
  });
});

describe('rarestPair', () => {
  it('takes the rarest, then the rarest that does not overlap it, or the next rarest when all do', () => {
    const weighed = [
      { text: 'd 5', at: 5, estimate: 50_000 },
      { text: ' 5 ', at: 6, estimate: 500 },
      { text: '5 p', at: 7, estimate: 400_000 },
      { text: 'pla', at: 9, estimate: 500_000 },
      { text: 't 3', at: 13, estimate: 100_000 },
    ];
    expect(rarestPair(weighed).map((trigram) => trigram.text)).toEqual([' 5 ', 't 3']);
    expect(rarestPair(weighed.slice(0, 3)).map((trigram) => trigram.text)).toEqual([' 5 ', 'd 5']);
    expect(rarestPair(weighed.slice(1, 2)).map((trigram) => trigram.text)).toEqual([' 5 ']);
    expect(rarestPair([])).toEqual([]);
  });

  it('breaks ties by where the trigram starts', () => {
    expect(rarestPair([{ text: 'xyz', at: 4, estimate: 1 }, { text: 'abc', at: 0, estimate: 1 }]).map((trigram) => trigram.at)).toEqual([0, 4]);
  });
});

describe('spread', () => {
  it('keeps a short list, and takes evenly spaced ones from a long one, the first included', () => {
    expect(spread([1, 2, 3], 24)).toEqual([1, 2, 3]);
    const many = Array.from({ length: 198 }, (_, index) => index);
    const taken = spread(many, 24);
    expect(taken).toHaveLength(24);
    expect(taken[0]).toBe(0);
    expect(new Set(taken).size).toBe(24);
    expect(taken.at(-1)).toBeGreaterThan(180);
  });
});
