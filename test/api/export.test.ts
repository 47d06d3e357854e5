// GET /plants/export, the round trip export → import into an empty store → export, and
// GET /plants/next-id (which needs a store of known contents: the empty one).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlantsCsv } from '../../lib/csv/plants-csv';
import { stringifyJson } from '../../lib/http/json';
import { BATCH_MAX_ITEMS } from '../../lib/schemas/plant';
import { api, expectError, newToken, uniqueId } from '../support/api';
import { createTestDatabase, tokenIn } from '../support/database';
import { requestOn, startServer, type RunningServer } from '../support/server';

let token: string;
const marker = `xq${randomBytes(4).toString('hex')}`;
const cleanups: (() => unknown)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

// Names that CSV must quote or keep exactly, and the int64 extremes (each test run has its own).
const awkward = () => [
  `{"id": ${uniqueId()}, "name": "Plain ${marker}", "tag": "plain"}`,
  `{"id": ${uniqueId()}, "name": "Comma, in name ${marker}"}`,
  `{"id": ${uniqueId()}, "name": "Quote \\"double\\" ${marker}", "tag": "quo\\"te"}`,
  `{"id": ${uniqueId()}, "name": "'Pink Princess' ${marker}", "tag": "aroid"}`,
  `{"id": ${uniqueId()}, "name": "=SUM(A1) ${marker}"}`,
  `{"id": ${uniqueId()}, "name": "Straße ΦΙΚΟΣ 榕树 🌿 ${marker}", "tag": "ünïcode"}`,
  `{"id": -${uniqueId()}, "name": "Negative ${marker}", "tag": "plain"}`,
];

beforeAll(async () => {
  token = await newToken('export tests');
  // More plants than the export's page (1000), so the stream spans several pages.
  const filler = Array.from({ length: 1500 }, (_, index) => `{"id": ${uniqueId()}, "name": "Filler ${index} ${marker}", "tag": "filler"}`);
  for (const items of [awkward(), filler.slice(0, 1000), filler.slice(1000)]) {
    const response = await api('/plants/batch', { method: 'POST', token, body: `[${items.join(',')}]` });
    expect(response.status, response.text).toBe(200);
  }
});

const exportOf = (query: string, on?: { url: string; token: string }) =>
  on
    ? requestOn(on, `/plants/export${query}`, { headers: { authorization: `Bearer ${on.token}` } })
    : api(`/plants/export${query}`, { token });

describe('GET /plants/export', () => {
  it('answers text/csv with a header row, a row per plant, oldest first, quoting where CSV needs it', async () => {
    const response = await exportOf(`?q=${marker}&tag=plain`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="plants.csv"');
    const lines = response.text.split('\r\n');
    expect(lines[0]).toBe('id,name,tag');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^\\d+,Plain ${marker},plain$`));
    expect(lines[2]).toMatch(new RegExp(`^-\\d+,Negative ${marker},plain$`));
    expect(lines[3]).toBe('');

    const quoted = await exportOf(`?q=${encodeURIComponent(`"double" ${marker}`)}`);
    expect(quoted.text.split('\r\n')[1]).toMatch(new RegExp(`^\\d+,"Quote ""double"" ${marker}","quo""te"$`));
    const comma = await exportOf(`?q=${encodeURIComponent(`comma, IN`)}`);
    expect(comma.text).toContain(`,"Comma, in name ${marker}",\r\n`);
  });

  it('writes the header alone when nothing matches, and refuses bad filters', async () => {
    expect((await exportOf(`?q=${marker}&tag=none-${marker}`)).text).toBe('id,name,tag\r\n');
    expectError(await exportOf(`?q=${'x'.repeat(201)}`), 400, 40003, 'q: must be at most 200 characters');
    expectError(await api('/plants/export'), 401, 40101);
    const post = await api('/plants/export', { method: 'POST', token, body: '{}' });
    expectError(post, 405, 40501);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('export, then import into an empty store', () => {
  let empty: RunningServer & { token: string };

  beforeAll(async () => {
    const database = await createTestDatabase();
    cleanups.push(database.remove);
    const { token: emptyToken } = await tokenIn(database.url, 'round trip');
    const server = await startServer({ databaseUrl: database.url });
    cleanups.push(() => server.stop('SIGKILL'));
    empty = Object.assign(server, { token: emptyToken });
  });

  it('offers id 1 in the empty store', async () => {
    const response = await requestOn(empty, '/plants/next-id', { headers: { authorization: `Bearer ${empty.token}` } });
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"id":1}');
  });

  it('gives the same catalogue, in the same order', async () => {
    const original = await exportOf(`?q=${marker}`);
    const parsed = parsePlantsCsv(original.text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.records).toHaveLength(1507);
    expect(parsed.records.filter((record) => Object.keys(record.problems).length > 0)).toEqual([]);

    // As the import page sends them: chunks of at most BATCH_MAX_ITEMS, in file order.
    const plants = parsed.records.map((record) => record.plant!);
    for (let start = 0; start < plants.length; start += BATCH_MAX_ITEMS) {
      const body = stringifyJson(plants.slice(start, start + BATCH_MAX_ITEMS).map(({ id, name, tag }) => ({ id, name, tag })));
      const imported = await requestOn(empty, '/plants/batch', {
        method: 'POST',
        headers: { authorization: `Bearer ${empty.token}`, 'content-type': 'application/json' },
        body,
      });
      expect(imported.status).toBe(200);
      expect(imported.text).not.toMatch(/"status":(400|409)/);
    }

    const copy = await exportOf('', empty);
    expect(copy.text).toBe(original.text);
    // Newest first lists the same too: the same ids, names and tags, page by page.
    const [originalList, copyList] = await Promise.all([
      api(`/plants?q=${marker}&limit=100`, { token }),
      requestOn(empty, '/plants?limit=100', { headers: { authorization: `Bearer ${empty.token}` } }),
    ]);
    expect(copyList.text).toBe(originalList.text);
  });

  it('then offers one more than the highest id, and the lowest free one once int64 max is taken', async () => {
    const headers = { authorization: `Bearer ${empty.token}` };
    const listed = await requestOn(empty, '/plants/export', { headers });
    const highest = listed.text
      .split('\r\n')
      .slice(1, -1)
      .map((line) => BigInt(line.split(',')[0]))
      .reduce((a, b) => (b > a ? b : a));
    expect((await requestOn(empty, '/plants/next-id', { headers })).text).toBe(`{"id":${highest + 1n}}`);

    const create = (id: bigint) =>
      requestOn(empty, '/plants', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: `{"id": ${id}, "name": "Edge"}` });
    expect((await create(9223372036854775807n)).status).toBe(200);
    expect((await requestOn(empty, '/plants/next-id', { headers })).text).toBe('{"id":1}');
    for (const id of [1n, 2n, 4n]) expect((await create(id)).status).toBe(200);
    expect((await requestOn(empty, '/plants/next-id', { headers })).text).toBe('{"id":3}');
  });
});
