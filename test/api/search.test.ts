// GET /plants?q=&tag=: the same answers on both engines (this file runs on each, with the same
// expectations), whichever index serves the search.
import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../lib/shared/json';
import { foldForSearch } from '../../lib/shared/fold';
import { api, expectError, newToken, uniqueId } from '../support/api';

let token: string;
// Every name and tag here carries this run's marker, so the shared database's other plants never match.
// Digits only, so no letter a test searches for can match it.
const marker = `qz${randomInt(1e9, 1e10)}`;
const tag = `t-${marker}`;

type Listed = { id: bigint; name: string; tag?: string };
const names = (response: { text: string }) => (parseJsonExact(response.text) as Listed[]).map((plant) => plant.name);

/** Names found by a search (always narrowed by this run's tag, unless `query` names its own). */
async function search(query: Record<string, string>): Promise<string[]> {
  const response = await api(`/plants?${new URLSearchParams({ tag, limit: '100', ...query })}`, { token });
  expect(response.status, response.text).toBe(200);
  return names(response);
}

// Stored oldest first, so lists (newest first) show them bottom up.
const PLANTS = [
  'Monstera Deliciosa',
  'Gartenstraße Farn',
  'Φίκος λυράτα',
  'МОНСТЕРА ВАРИЕГАТА',
  'İstanbul ivy',
  'Ｆｅｒｎ wide',
  'Café au lait',
  '100% "pure" fern_x \\ back',
  "Monstera 'Thai Constellation'",
  'Potted 🪴🌵 cactus',
];

beforeAll(async () => {
  token = await newToken('search tests');
  for (const name of PLANTS) {
    // Ids above 2^53, which JSON.stringify cannot write, so the body is written by hand.
    const created = await api('/plants', {
      method: 'POST',
      token,
      body: `{"id": ${uniqueId()}, "name": ${JSON.stringify(`${name} ${marker}`)}, "tag": "${tag}"}`,
    });
    expect(created.status, created.text).toBe(200);
  }
});

const withMarker = (...found: string[]) => found.map((name) => `${name} ${marker}`);

describe('GET /plants?q=', () => {
  it('finds a piece of the name in any case, newest first', async () => {
    expect(await search({ q: 'monstera' })).toEqual(withMarker("Monstera 'Thai Constellation'", 'Monstera Deliciosa'));
    expect(await search({ q: 'STERA dEL' })).toEqual(withMarker('Monstera Deliciosa'));
    expect(await search({ q: "'thai c" })).toEqual(withMarker("Monstera 'Thai Constellation'"));
  });

  it('folds non-ASCII text the same way on both engines', async () => {
    expect(await search({ q: 'STRASSE' })).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search({ q: 'straße' })).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search({ q: 'ΦΊΚΟΣ' })).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search({ q: 'κοσ λυρ' })).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search({ q: 'монстера' })).toEqual(withMarker('МОНСТЕРА ВАРИЕГАТА'));
    expect(await search({ q: 'istanbul' })).toEqual(withMarker('İstanbul ivy'));
    expect(await search({ q: 'FERN WIDE' })).toEqual(withMarker('Ｆｅｒｎ wide'));
    expect(await search({ q: 'cafe\u0301' })).toEqual(withMarker('Café au lait'));
  });

  it('keeps accents significant', async () => {
    expect(await search({ q: 'cafe' })).toEqual([]);
    expect(await search({ q: 'φικος' })).toEqual([]);
  });

  it('takes LIKE and FTS syntax as plain text', async () => {
    const special = withMarker('100% "pure" fern_x \\ back');
    expect(await search({ q: '%' })).toEqual(special);
    expect(await search({ q: '0% "p' })).toEqual(special);
    expect(await search({ q: '"pure"' })).toEqual(special);
    expect(await search({ q: 'n_x' })).toEqual(special);
    expect(await search({ q: '\\ b' })).toEqual(special);
    expect(await search({ q: 'e_' })).toEqual([]);
    expect(await search({ q: 'pure AND fern' })).toEqual([]);
    expect(await search({ q: 'pu*' })).toEqual([]);
  });

  it('matches one and two characters, below the trigram index', async () => {
    expect(await search({ q: 'İV' })).toEqual(withMarker('İstanbul ivy'));
    expect(await search({ q: 'ß' })).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search({ q: 'ΦΊ' })).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search({ q: '%' })).toHaveLength(1);
    expect(await search({ q: 'qq' })).toEqual([]);
  });

  it('matches one and two characters outside the BMP, across the whole catalogue', async () => {
    // Two code points but four UTF-16 units: a search of "two characters" on both engines. No tag
    // narrows these, so PostgreSQL answers from the index of names' characters and pairs.
    const across = async (q: string) => names(await api(`/plants?${new URLSearchParams({ q, limit: '100' })}`, { token }));
    expect(await across('🪴🌵')).toEqual(withMarker('Potted 🪴🌵 cactus'));
    expect(await across('🌵')).toEqual(withMarker('Potted 🪴🌵 cactus'));
    expect(await across('🌵🪴')).toEqual([]);
  });

  it('finds by the marker alone across all plants, and by q and tag together', async () => {
    const everything = [...PLANTS].reverse().map((name) => `${name} ${marker}`);
    expect(names(await api(`/plants?q=${marker}&limit=100`, { token }))).toEqual(everything);
    expect(await search({ q: marker })).toEqual(everything);
    expect(await search({ q: marker, tag: `${tag}-other` })).toEqual([]);
  });

  it('treats an empty or blank q as no filter, and trims it', async () => {
    expect(await search({ q: '' })).toHaveLength(PLANTS.length);
    expect(await search({ q: '   ' })).toHaveLength(PLANTS.length);
    expect(await search({ q: '  ivy  ' })).toEqual(withMarker('İstanbul ivy'));
  });

  it('refuses a q that is too long or holds control characters', async () => {
    expectError(await api(`/plants?q=${'x'.repeat(201)}`, { token }), 400, 40003, 'q: must be at most 200 characters');
    expectError(await api('/plants?q=a%00b', { token }), 400, 40003, 'q: must not contain control characters');
    expectError(await api(`/plants?tag=${'x'.repeat(101)}`, { token }), 400, 40003, 'tag: must be at most 100 characters');
  });
});

describe('GET /plants?tag=', () => {
  it('matches the tag exactly, case and all', async () => {
    expect(await search({})).toHaveLength(PLANTS.length);
    expect(await search({ tag: tag.toUpperCase() })).toEqual([]);
    expect(await search({ tag: tag.slice(0, -1) })).toEqual([]);
  });
});

describe('search pages', () => {
  it('walk with limit and cursor, keeping the filters in Link', async () => {
    const seen: string[] = [];
    let path = `/plants?${new URLSearchParams({ q: 'a', tag, limit: '2' })}`;
    for (;;) {
      const page = await api(path, { token });
      expect(page.status).toBe(200);
      seen.push(...names(page));
      const cursor = page.headers.get('next-cursor');
      if (!cursor) break;
      const link = page.headers.get('link')!;
      expect(link).toBe(`</plants?q=a&tag=${tag}&limit=2&cursor=${cursor}>; rel="next"`);
      path = link.slice(1, link.indexOf('>'));
    }
    const expected = withMarker(...[...PLANTS].reverse()).filter((name) => foldForSearch(name).includes('a'));
    expect(seen).toEqual(expected);
  });
});
