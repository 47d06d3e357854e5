import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newToken, request, sharedServer, uniqueId } from '../support/api';

let token: string;
beforeAll(async () => {
  token = await newToken('read tests');
});

const create = async (name: string) => {
  const id = uniqueId();
  const response = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "${name}"}` });
  expect(response.status).toBe(200);
  return id;
};

/** Ids of a list response as exact strings (JSON.parse would round them). */
const idsOf = (text: string) => [...text.matchAll(/"id":(-?\d+)/g)].map((match) => BigInt(match[1]));

describe('GET /plants', () => {
  it('lists plants newest first, 20 by default', async () => {
    const created: bigint[] = [];
    for (let index = 0; index < 25; index++) created.push(await create(`List ${index}`));
    const response = await request(sharedServer(), '/plants', { token });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Array.isArray(response.body)).toBe(true);
    expect(idsOf(response.text)).toEqual(created.slice(-20).reverse());
  });

  it('honours limit and pages with the cursor until the end', async () => {
    const created: bigint[] = [];
    for (let index = 0; index < 7; index++) created.push(await create(`Page ${index}`));
    const newestFirst = created.slice().reverse();

    const first = await request(sharedServer(), '/plants?limit=3', { token });
    expect(idsOf(first.text)).toEqual(newestFirst.slice(0, 3));
    const cursor = first.headers.get('next-cursor')!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.headers.get('link')).toBe(`</plants?limit=3&cursor=${cursor}>; rel="next"`);

    const second = await request(sharedServer(), `/plants?limit=3&cursor=${cursor}`, { token });
    expect(idsOf(second.text)).toEqual(newestFirst.slice(3, 6));

    // Walk the rest of the store: every plant appears once, and the last page has no cursor.
    const seen = new Set<bigint>([...idsOf(first.text), ...idsOf(second.text)]);
    let next = second.headers.get('next-cursor');
    while (next) {
      const page = await request(sharedServer(), `/plants?limit=100&cursor=${next}`, { token });
      for (const id of idsOf(page.text)) {
        expect(seen.has(id)).toBe(false);
        seen.add(id);
      }
      next = page.headers.get('next-cursor');
      if (!next) expect(page.headers.get('link')).toBeNull();
    }
    for (const id of created) expect(seen.has(id)).toBe(true);
  });

  it.each([
    ['0', 'limit: must be a whole number from 1 to 100'],
    ['101', 'limit: must be a whole number from 1 to 100'],
    ['-1', 'limit: must be a whole number from 1 to 100'],
    ['ten', 'limit: must be a whole number from 1 to 100'],
    ['2.5', 'limit: must be a whole number from 1 to 100'],
  ])('refuses limit=%s', async (limit, message) => {
    expectError(await request(sharedServer(), `/plants?limit=${limit}`, { token }), 400, 40003, message);
  });

  it.each(['nonsense!', 'czEyMzQ1Njc4OTAxMjM0NTY3ODk', 'eA'])('refuses cursor=%s', async (cursor) => {
    expectError(await request(sharedServer(), `/plants?cursor=${cursor}`, { token }), 400, 40003, /^cursor: must be a cursor returned by a previous page$/);
  });
});

describe('GET and DELETE /plants/{id}', () => {
  it('reads a plant, deletes it with 204, then answers 404 to both', async () => {
    const id = await create('Short-lived');
    expect((await request(sharedServer(), `/plants/${id}`, { token })).text).toBe(`{"id":${id},"name":"Short-lived"}`);

    const deleted = await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');

    expectError(await request(sharedServer(), `/plants/${id}`, { token }), 404, 40401, `No plant has id ${id}`);
    expectError(await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token }), 404, 40401);
  });

  it('lets a deleted id be created again', async () => {
    const id = await create('Phoenix');
    await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token });
    const again = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "Phoenix II"}` });
    expect(again.text).toBe(`{"id":${id},"name":"Phoenix II"}`);
  });

  it.each(['abc', '1.5', '9223372036854775808', '1e3'])('refuses the id %s with 400', async (id) => {
    expectError(await request(sharedServer(), `/plants/${id}`, { token }), 400, 40003, /^id: must be/);
    expectError(await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token }), 400, 40003);
  });
});
