// PATCH /plants/{id} (JSON Merge Patch), ETags, and If-Match on PATCH and DELETE: no lost updates.
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, expectError, newToken, request, sharedServer, uniqueId } from '../support/api';

let token: string;
beforeAll(async () => {
  token = await newToken('correct tests');
});

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };
const ETAG = /^"[A-Za-z0-9_-]{22}"$/;

async function plant(body: string): Promise<{ id: bigint; etag: string }> {
  const id = uniqueId();
  const response = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, ${body}}` });
  expect(response.status, response.text).toBe(200);
  return { id, etag: response.headers.get('etag')! };
}

const patch = (id: bigint, body: string, headers: Record<string, string> = {}) =>
  request(sharedServer(), `/plants/${id}`, { method: 'PATCH', token, body, headers: { ...MERGE_PATCH, ...headers } });
const read = (id: bigint, headers?: Record<string, string>) => request(sharedServer(), `/plants/${id}`, { token, headers });
const etagOf = (response: ApiResponse) => response.headers.get('etag');

describe('ETag', () => {
  it('is strong, the same on create, read and patch for the same content, and changes with it', async () => {
    const { id, etag } = await plant('"name": "Fern", "tag": "fern"');
    expect(etag).toMatch(ETAG);
    expect(etagOf(await read(id))).toBe(etag);
    const replay = await request(sharedServer(), '/plants', { method: 'POST', token, body: `{"id": ${id}, "name": "Fern", "tag": "fern"}` });
    expect(etagOf(replay)).toBe(etag);

    const changed = await patch(id, '{"name": "Boston fern"}');
    expect(etagOf(changed)).toMatch(ETAG);
    expect(etagOf(changed)).not.toBe(etag);
    const back = await patch(id, '{"name": "Fern"}');
    expect(etagOf(back)).toBe(etag);
  });

  it('answers If-None-Match with 304 and no body when it matches, weak or strong', async () => {
    const { id, etag } = await plant('"name": "Cached"');
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const response = await read(id, { 'if-none-match': condition });
      expect(response.status, condition).toBe(304);
      expect(response.text).toBe('');
      expect(etagOf(response)).toBe(etag);
    }
    expect((await read(id, { 'if-none-match': '"other"' })).text).toBe(`{"id":${id},"name":"Cached"}`);
    expectError(await read(id, { 'if-none-match': 'unquoted' }), 400, 40005, /^If-None-Match must be \* or a list of quoted entity tags/);
  });
});

describe('PATCH /plants/{id}', () => {
  it('replaces the name, keeping the tag', async () => {
    const { id } = await plant('"name": "Monstra", "tag": "aroid"');
    const response = await patch(id, '{"name": "  Monstera  "}');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.text).toBe(`{"id":${id},"name":"Monstera","tag":"aroid"}`);
    expect((await read(id)).text).toBe(response.text);
  });

  it('replaces the tag, removes it with null, and leaves out what is not sent', async () => {
    const { id } = await plant('"name": "Aloe"');
    expect((await patch(id, '{"tag": "succulent"}')).text).toBe(`{"id":${id},"name":"Aloe","tag":"succulent"}`);
    expect((await patch(id, '{"tag": null}')).text).toBe(`{"id":${id},"name":"Aloe"}`);
    expect((await patch(id, '{}')).text).toBe(`{"id":${id},"name":"Aloe"}`);
  });

  it('takes application/json too, an id equal to the path, and ignores unknown fields', async () => {
    const { id } = await plant('"name": "Pilea"');
    const response = await patch(id, `{"id": ${id}, "name": "Pilea peperomioides", "colour": "green"}`, { 'content-type': 'application/json; charset=utf-8' });
    expect(response.text).toBe(`{"id":${id},"name":"Pilea peperomioides"}`);
  });

  it('follows the search index: the new name is found, the old one not', async () => {
    const marker = `zq${uniqueId()}`;
    const { id } = await plant(`"name": "Before ${marker}"`);
    await patch(id, `{"name": "After ${marker}"}`);
    expect((await request(sharedServer(), `/plants?q=before ${marker}`, { token })).text).toBe('[]');
    expect((await request(sharedServer(), `/plants?q=AFTER ${marker}`, { token })).text).toBe(`[{"id":${id},"name":"After ${marker}"}]`);
  });

  it.each([
    ['a different id', (id: bigint) => `{"id": ${id + 1n}}`, /^id: cannot change; this plant's id is \d+/],
    ['a null name', () => '{"name": null}', 'name: must be a string'],
    ['an empty name', () => '{"name": "  "}', 'name: must not be empty'],
    ['a name too long', () => `{"name": "${'n'.repeat(201)}"}`, 'name: must be at most 200 characters'],
    ['an empty tag', () => '{"tag": ""}', /^tag: must not be empty/],
    ['a numeric tag', () => '{"tag": 7}', /^tag: must be a string/],
    ['an id with a fraction', () => '{"id": 1.0}', /^id: must be an integer/],
  ])('refuses %s with 400, changing nothing', async (_label, body, message) => {
    const { id } = await plant('"name": "Steady", "tag": "kept"');
    expectError(await patch(id, body(id)), 400, 40002, message);
    expect((await read(id)).text).toBe(`{"id":${id},"name":"Steady","tag":"kept"}`);
  });

  it.each([
    ['an array', '[{"name": "x"}]', 40002, 'Request body must be a JSON object, not an array'],
    ['null', 'null', 40002, 'Request body must be a JSON object, not null'],
    ['empty', '', 40001, 'Request body is empty: send a JSON object'],
    ['malformed', '{"name": ', 40001, /^Request body is not valid JSON/],
  ])('refuses a body that is %s', async (_label, body, code, message) => {
    const { id } = await plant('"name": "Body"');
    expectError(await patch(id, body), 400, code, message);
  });

  it('refuses other media types with 415', async () => {
    const { id } = await plant('"name": "Typed"');
    for (const type of ['text/plain', 'application/json-patch+json', 'application/merge-patch+json; charset=latin1']) {
      expectError(await patch(id, '{"name": "x"}', { 'content-type': type }), 415, 41501);
    }
  });

  it('answers 404 for a plant that does not exist, and 400 for a malformed id', async () => {
    expectError(await patch(uniqueId(), '{"name": "Ghost"}'), 404, 40401, /^No plant has id \d+$/);
    expectError(await patch(uniqueId(), '{"name": "Ghost"}', { 'if-match': '"abc"' }), 404, 40401);
    expectError(await request(sharedServer(), '/plants/abc', { method: 'PATCH', token, body: '{}', headers: MERGE_PATCH }), 400, 40003);
  });
});

describe('If-Match', () => {
  it('lets a PATCH through with the current ETag, and answers 412 to a stale one, changing nothing', async () => {
    const { id, etag } = await plant('"name": "Shared", "tag": "one"');
    const first = await patch(id, '{"tag": "two"}', { 'if-match': etag });
    expect(first.status).toBe(200);
    const stale = await patch(id, '{"tag": "three"}', { 'if-match': etag });
    expectError(stale, 412, 41201, `If-Match: plant ${id} has changed since that ETag was read; read it again (GET /plants/${id}) and retry`);
    expect((await read(id)).text).toBe(`{"id":${id},"name":"Shared","tag":"two"}`);
    expect((await patch(id, '{"tag": "three"}', { 'if-match': `"x", ${etagOf(first)}` })).status).toBe(200);
  });

  it('never matches a weak tag, and * matches any plant that exists', async () => {
    const { id, etag } = await plant('"name": "Weak"');
    expectError(await patch(id, '{"name": "x"}', { 'if-match': `W/${etag}` }), 412, 41201);
    expect((await patch(id, '{"name": "Strong"}', { 'if-match': '*' })).status).toBe(200);
  });

  it('guards DELETE the same way', async () => {
    const { id, etag } = await plant('"name": "Doomed"');
    await patch(id, '{"name": "Doomed twice"}');
    expectError(await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token, headers: { 'if-match': etag } }), 412, 41201);
    expect((await read(id)).status).toBe(200);
    const current = etagOf(await read(id))!;
    expect((await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token, headers: { 'if-match': current } })).status).toBe(204);
    expectError(await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token, headers: { 'if-match': current } }), 404, 40401);
  });

  it.each(['abc', '"unterminated', '"a" "b"', 'W/abc', ''])('refuses the malformed If-Match %j with 400', async (value) => {
    const { id } = await plant('"name": "Malformed"');
    expectError(await patch(id, '{"name": "x"}', { 'if-match': value }), 400, 40005, /^If-Match must be \* or a list of quoted entity tags/);
    expectError(await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token, headers: { 'if-match': value } }), 400, 40005);
    expect((await read(id)).text).toBe(`{"id":${id},"name":"Malformed"}`);
  });

  it('lets exactly one of many concurrent PATCHes with the same ETag through', async () => {
    const { id, etag } = await plant('"name": "Contested"');
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => patch(id, `{"name": "Editor ${index}"}`, { 'if-match': etag })),
    );
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    for (const answer of answers) if (answer.status !== 200) expectError(answer, 412, 41201);
    expect((await read(id)).text).toBe(winners[0].text);
  });
});
