// POST /plants/batch: each item decided as POST /plants decides it, in order, one result per item.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact } from '../../lib/shared/json';
import { BATCH_MAX_ITEMS } from '../../lib/schemas/limits';
import { expectError, newToken, request, sharedServer, uniqueId } from '../support/api';

let token: string;
beforeAll(async () => {
  token = await newToken('batch tests');
});

type Result = { index: number; status: number; created?: boolean; plant?: { id: bigint; name: string; tag?: string }; error?: { error: number; message: string } };

async function batch(body: string): Promise<Result[]> {
  const response = await request(sharedServer(), '/plants/batch', { method: 'POST', token, body });
  expect(response.status, response.text).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  // Exact ids; the small numbers (index, status, error code) as numbers.
  const { results } = parseJsonExact(response.text) as { results: Result[] };
  return results.map((result, index) => {
    const small = { ...result, index: Number(result.index), status: Number(result.status) };
    if (result.error) small.error = { ...result.error, error: Number(result.error.error) };
    expect(small.index).toBe(index);
    return small;
  });
}

const read = async (id: bigint) => (await request(sharedServer(), `/plants/${id}`, { token })).text;

describe('POST /plants/batch', () => {
  it('creates every good item, exactly, answering one result per item in order', async () => {
    const ids = [uniqueId(), uniqueId(), 9007199254740993n + uniqueId()];
    const results = await batch(
      `[{"id": ${ids[0]}, "name": "Fern", "tag": "fern"}, {"id": ${ids[1]}, "name": " Aloe "}, {"id": ${ids[2]}, "name": "Big id"}]`,
    );
    expect(results).toEqual([
      { index: 0, status: 200, created: true, plant: { id: ids[0], name: 'Fern', tag: 'fern' } },
      { index: 1, status: 200, created: true, plant: { id: ids[1], name: 'Aloe' } },
      { index: 2, status: 200, created: true, plant: { id: ids[2], name: 'Big id' } },
    ]);
    expect(await read(ids[2])).toBe(`{"id":${ids[2]},"name":"Big id"}`);
  });

  it('answers a retry with created: false, and another name for a taken id with 409, as POST /plants does', async () => {
    const id = uniqueId();
    expect((await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "Stored"}` })).status).toBe(200);
    const results = await batch(`[{"id": ${id}, "name": "Stored"}, {"id": ${id}, "name": "Intruder"}]`);
    expect(results[0]).toEqual({ index: 0, status: 200, created: false, plant: { id, name: 'Stored' } });
    expect(results[1]).toEqual({
      index: 1,
      status: 409,
      error: { error: 40901, message: `id: a plant with id ${id} already exists with a different name or tag; choose another id` },
    });
    expect(await read(id)).toBe(`{"id":${id},"name":"Stored"}`);
  });

  it('settles an id that comes twice by the first: the same again is a retry, other content a conflict', async () => {
    const [once, twice] = [uniqueId(), uniqueId()];
    const results = await batch(
      `[{"id": ${once}, "name": "First"}, {"id": ${once}, "name": "First"}, {"id": ${twice}, "name": "Winner"}, {"id": ${twice}, "name": "Loser"}]`,
    );
    expect(results.map((result) => [result.status, result.created])).toEqual([
      [200, true],
      [200, false],
      [200, true],
      [409, undefined],
    ]);
    expect(await read(twice)).toBe(`{"id":${twice},"name":"Winner"}`);
  });

  // A full batch is four transaction chunks on PostgreSQL and one on SQLite (PlantStore.chunkSize);
  // test/db/batch-chunks.test.ts takes each engine through several.
  it('settles a duplicate the same way at either end of a full batch', async () => {
    const id = uniqueId();
    const late = BATCH_MAX_ITEMS - 5;
    const items = Array.from({ length: BATCH_MAX_ITEMS }, () => `{"id": ${uniqueId()}, "name": "Filler"}`);
    items[0] = `{"id": ${id}, "name": "Early"}`;
    items[late] = `{"id": ${id}, "name": "Late"}`;
    const results = await batch(`[${items.join(',')}]`);
    expect(results[0]).toMatchObject({ status: 200, created: true });
    expect(results[late]).toMatchObject({ status: 409, error: { error: 40901 } });
    expect(results.filter((result) => result.status === 200)).toHaveLength(BATCH_MAX_ITEMS - 1);
  });

  it('refuses each bad item with its own 400, and stores the good ones around it', async () => {
    const good = [uniqueId(), uniqueId()];
    const results = await batch(
      `[{"id": ${good[0]}, "name": "Good"}, {"id": "12", "name": "String id"}, {"name": ""}, "plant", null, [1], ` +
        `{"id": 1.5, "name": "Fraction"}, {"id": 9223372036854775808, "name": "Too big"}, {"id": ${good[1]}, "name": "Also good", "tag": null}, {"id": ${good[1]}, "name": "Also good"}]`,
    );
    const messages = results.map((result) => (result.status === 400 ? result.error!.message : result.status));
    expect(messages).toEqual([
      200,
      'id: must be an integer without fraction or exponent',
      'id: is required; name: must not be empty',
      'Item must be a JSON object, not a string',
      'Item must be a JSON object, not null',
      'Item must be a JSON object, not an array',
      'id: must be an integer without fraction or exponent',
      'id: must be at most 9223372036854775807',
      'tag: must be a string; leave the field out for no tag',
      200,
    ]);
    for (const result of results) if (result.status === 400) expect(result.error!.error).toBe(40002);
    expect(await read(good[1])).toBe(`{"id":${good[1]},"name":"Also good"}`);
  });

  it('takes up to 1000 items, and an empty array', async () => {
    const items = Array.from({ length: 1000 }, (_, index) => `{"id": ${uniqueId()}, "name": "Bulk ${index}", "tag": "bulk"}`);
    const results = await batch(`[${items.join(',')}]`);
    expect(results.every((result) => result.status === 200 && result.created)).toBe(true);
    expect(await batch('[]')).toEqual([]);
  });

  it('refuses more than 1000 items as a whole with 413, storing none', async () => {
    const id = uniqueId();
    const items = Array.from({ length: 1001 }, () => `{"id": ${uniqueId()}, "name": "Over"}`);
    items[0] = `{"id": ${id}, "name": "Over"}`;
    const response = await request(sharedServer(), '/plants/batch', { method: 'POST', token, body: `[${items.join(',')}]` });
    expectError(response, 413, 41302, 'A batch may hold at most 1000 plants, not 1001: split it');
    expect((await request(sharedServer(), `/plants/${id}`, { token })).status).toBe(404);
  });

  it('refuses a body over 2 MiB with 413', async () => {
    const body = `[{"id": 1, "name": "x", "padding": "${'p'.repeat(2 * 1024 * 1024)}"}]`;
    expectError(await request(sharedServer(), '/plants/batch', { method: 'POST', token, body }), 413, 41301, 'Request body must be at most 2097152 bytes');
  });

  it.each([
    ['an object', '{"id": 1, "name": "x"}', 40002, 'Request body must be a JSON array, not an object'],
    ['a string', '"plants"', 40002, 'Request body must be a JSON array, not a string'],
    ['null', 'null', 40002, 'Request body must be a JSON array, not null'],
    ['empty', '', 40001, 'Request body is empty: send a JSON array'],
    ['malformed', '[{"id": 1,', 40001, /^Request body is not valid JSON/],
  ])('refuses a body that is %s as a whole with 400', async (_label, body, code, message) => {
    expectError(await request(sharedServer(), '/plants/batch', { method: 'POST', token, body }), 400, code, message);
  });

  it('wants application/json, a token, and POST', async () => {
    expectError(await request(sharedServer(), '/plants/batch', { method: 'POST', token, body: '[]', headers: { 'content-type': 'text/csv' } }), 415, 41501);
    expectError(await request(sharedServer(), '/plants/batch', { method: 'POST', body: '[]' }), 401, 40101);
    const get = await request(sharedServer(), '/plants/batch', { token });
    expectError(get, 405, 40501);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
