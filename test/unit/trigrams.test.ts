// The trigrams a long search is planned by (lib/shared/trigrams.ts): cut by code points, each once,
// the rarest first, and a long text's spread evenly.
import { describe, expect, it } from 'vitest';
import { rarest, spread, trigramsOf } from '../../lib/shared/trigrams';

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

describe('rarest', () => {
  it('takes the rarest, ties broken by where the trigram starts', () => {
    const weighed = [
      { text: 'd 5', at: 5, estimate: 50_000 },
      { text: ' 5 ', at: 6, estimate: 500 },
      { text: '5 p', at: 7, estimate: 400_000 },
      { text: 't 3', at: 13, estimate: 50_000 },
    ];
    expect(rarest(weighed, 2).map((trigram) => trigram.text)).toEqual([' 5 ', 'd 5']);
    expect(rarest(weighed, 3).map((trigram) => trigram.text)).toEqual([' 5 ', 'd 5', 't 3']);
    expect(rarest(weighed.slice(1, 2), 2).map((trigram) => trigram.text)).toEqual([' 5 ']);
    expect(rarest([], 2)).toEqual([]);
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
