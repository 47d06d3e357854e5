// GET /plants?q=&tag= over HTTP, on both engines: what the API adds to a search (a blank q, trimming,
// refusals, pages that keep the filters in Link). Which plants a search finds, on each engine and
// whichever index serves it, is the store's: test/db/contract/plants.test.ts, search.
import { randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../lib/shared/json';
import { foldForSearch } from '../../lib/shared/fold';
import { expectError, newToken, request, sharedServer, uniqueId } from '../support/api';
import { SEARCH_NAMES } from '../support/search-names';

let token: string;
// Every name and tag here carries this run's marker, so the shared database's other plants never match.
// Digits only, so no letter a test searches for can match it.
const marker = `qz${randomInt(1e9, 1e10)}`;
const tag = `t-${marker}`;

type Listed = { id: bigint; name: string; tag?: string };
const names = (response: { text: string }) => (parseJsonExact(response.text) as Listed[]).map((plant) => plant.name);

/** Names found by a search (always narrowed by this run's tag, unless `query` names its own). */
async function search(query: Record<string, string>): Promise<string[]> {
  const response = await request(sharedServer(), `/plants?${new URLSearchParams({ tag, limit: '100', ...query })}`, { token });
  expect(response.status, response.text).toBe(200);
  return names(response);
}

// Stored oldest first, so lists (newest first) show them bottom up.
const PLANTS = SEARCH_NAMES;

beforeAll(async () => {
  token = await newToken('search tests');
  for (const name of PLANTS) {
    // Ids above 2^53, which JSON.stringify cannot write, so the body is written by hand.
    const created = await request(sharedServer(), '/plants', {
      method: 'POST',
      token,
      body: `{"id": ${uniqueId()}, "name": ${JSON.stringify(`${name} ${marker}`)}, "tag": "${tag}"}`,
    });
    expect(created.status, created.text).toBe(200);
  }
});

const withMarker = (...found: string[]) => found.map((name) => `${name} ${marker}`);

describe('GET /plants?q=', () => {
  it('treats an empty or blank q as no filter, and trims it', async () => {
    expect(await search({ q: '' })).toHaveLength(PLANTS.length);
    expect(await search({ q: '   ' })).toHaveLength(PLANTS.length);
    expect(await search({ q: '  ivy  ' })).toEqual(withMarker('İstanbul ivy'));
  });

  it('refuses a q that is too long or holds control characters', async () => {
    expectError(await request(sharedServer(), `/plants?q=${'x'.repeat(201)}`, { token }), 400, 40003, 'q: must be at most 200 characters');
    expectError(await request(sharedServer(), '/plants?q=a%00b', { token }), 400, 40003, 'q: must not contain control characters');
    expectError(await request(sharedServer(), `/plants?tag=${'x'.repeat(101)}`, { token }), 400, 40003, 'tag: must be at most 100 characters');
  });
});

describe('a long search', () => {
  it('finds the names that have the whole text, with LIKE syntax and quotes as plain text, and counts them exactly', async () => {
    const special = withMarker('100% "pure" fern_x \\ back');
    for (const [q, found] of [
      ['100% "pure" fern_x \\ back', special],
      ['% "pure" fern', special],
      ['fern%x \\ back', []],
      ["MONSTERA 'THAI C", withMarker("Monstera 'Thai Constellation'")],
      ['monstera deliciosa thai', []],
      ['ΦΊΚΟΣ ΛΥΡΆΤΑ', withMarker('Φίκος λυράτα')],
    ] as const) {
      const response = await request(sharedServer(), `/plants?${new URLSearchParams({ q, tag, count: 'true' })}`, { token });
      expect(response.status, response.text).toBe(200);
      expect(names(response), q).toEqual(found);
      expect(response.headers.get('x-total-count'), q).toBe(String(found.length));
    }
  });
});

describe('search pages', () => {
  it('walk with limit and cursor, keeping the filters in Link', async () => {
    const seen: string[] = [];
    let path = `/plants?${new URLSearchParams({ q: 'a', tag, limit: '2' })}`;
    for (;;) {
      const page = await request(sharedServer(), path, { token });
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
