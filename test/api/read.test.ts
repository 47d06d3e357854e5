import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../lib/db/client';
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

describe('GET /plants?sort= and count=', () => {
  // Plants of a tag of this test's own, so the store's other plants stay out of the lists.
  const marker = `rs${uniqueId()}`;
  const base = uniqueId();
  // Added in this order; ids and names in other orders; two names equal once folded.
  const specs: [string, bigint][] = [['Yucca', base + 2n], ['aloe', base + 4n], ['Fern', base + 1n], ['Aloe', base + 3n], ['ivy', base + 5n]];
  const list = async (query: string) => {
    const response = await request(sharedServer(), `/plants?tag=${marker}&${query}`, { token });
    expect(response.status, response.text).toBe(200);
    return response;
  };
  beforeAll(async () => {
    for (const [name, id] of specs) {
      const created = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "${name}", "tag": "${marker}"}` });
      expect(created.status).toBe(200);
    }
  });

  it.each([
    ['name', [base + 4n, base + 3n, base + 1n, base + 5n, base + 2n]],
    ['-name', [base + 2n, base + 5n, base + 1n, base + 3n, base + 4n]],
    ['id', [base + 1n, base + 2n, base + 3n, base + 4n, base + 5n]],
    ['-id', [base + 5n, base + 4n, base + 3n, base + 2n, base + 1n]],
    ['created', specs.map(([, id]) => id)],
    ['-created', specs.map(([, id]) => id).reverse()],
  ])('sort=%s lists in that order, and its cursor pages through every plant once', async (sort, expected) => {
    expect(idsOf((await list(`sort=${sort}`)).text)).toEqual(expected);
    const walked: bigint[] = [];
    let next: string | null = `/plants?tag=${marker}&sort=${sort}&limit=2`;
    while (next) {
      const page = await request(sharedServer(), next, { token });
      expect(page.status, page.text).toBe(200);
      walked.push(...idsOf(page.text));
      // The Link keeps the sort.
      next = page.headers.get('link')?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? null;
      if (next) expect(next).toContain(`sort=${encodeURIComponent(sort)}`);
    }
    expect(walked).toEqual(expected);
  });

  it('refuses an unknown sort, and a cursor of another sort', async () => {
    expectError(await request(sharedServer(), '/plants?sort=price', { token }), 400, 40003, 'sort: must be one of -created, created, -name, name, -id, id');
    const byName = (await list('sort=name&limit=1')).headers.get('next-cursor')!;
    expect(byName).toBeTruthy();
    expectError(await request(sharedServer(), `/plants?sort=id&cursor=${byName}`, { token }), 400, 40003, /^cursor: must be a cursor returned by a previous page$/);
    expectError(await request(sharedServer(), `/plants?cursor=${byName}`, { token }), 400, 40003, /^cursor: must be a cursor returned by a previous page$/);
  });

  it('answers X-Total-Count with count=true: all the filters match, whatever the page', async () => {
    expect((await list('limit=2')).headers.get('x-total-count')).toBeNull();
    expect((await list('limit=2&count=false')).headers.get('x-total-count')).toBeNull();
    const counted = await list('limit=2&count=true');
    expect(counted.headers.get('x-total-count')).toBe('5');
    expect((await request(sharedServer(), counted.headers.get('link')!.slice(1).split('>')[0], { token })).headers.get('x-total-count')).toBe('5');
    expect((await list('q=ALOE&count=true')).headers.get('x-total-count')).toBe('2');
    expect((await request(sharedServer(), `/plants?tag=none-${marker}&count=true`, { token })).headers.get('x-total-count')).toBe('0');
    expectError(await request(sharedServer(), '/plants?count=yes', { token }), 400, 40003, 'count: must be true or false');
  });

  it('keeps X-Total-Count true through every change, whoever makes it: the server keeps counts only while the plants stay as they were', async () => {
    const tag = `kept-${marker}`;
    const counted = async (query: string) => {
      const response = await request(sharedServer(), `/plants?tag=${tag}&count=true&${query}`, { token });
      expect(response.status, response.text).toBe(200);
      return [Number(response.headers.get('x-total-count')), idsOf(response.text).length];
    };
    // Each count asked twice: the second may be the kept one.
    const twice = async (query: string) => {
      const first = await counted(query);
      expect(await counted(query)).toEqual(first);
      return first;
    };
    expect(await twice('q=kept')).toEqual([0, 0]);
    const id = uniqueId();
    const made = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "Kept one", "tag": "${tag}"}` });
    expect(made.status).toBe(200);
    expect(await twice('q=kept')).toEqual([1, 1]);
    // Renamed so the search no longer matches: a change that moves no count by day or tag.
    const renamed = await request(sharedServer(), `/plants/${id}`, { method: 'PATCH', token, body: '{"name": "Moved on"}', headers: { 'content-type': 'application/merge-patch+json' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await twice('q=kept')).toEqual([0, 0]);
    expect(await twice('q=moved')).toEqual([1, 1]);
    // Changed by another connection (as by the CLI, or another instance on PostgreSQL).
    await db().plant.update({ where: { id }, data: { name: 'Kept again', nameFolded: 'kept again' } });
    expect(await twice('q=kept')).toEqual([1, 1]);
    expect(await twice('q=moved')).toEqual([0, 0]);
    await db().plant.delete({ where: { id } });
    expect(await twice('q=kept')).toEqual([0, 0]);
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
