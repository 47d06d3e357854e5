import type { Socket } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, newToken, request, sharedServer, uniqueId } from '../support/api';
import { rawExchange, requestBytes } from '../support/raw-socket';

let token: string;
beforeAll(async () => {
  token = await newToken('create tests');
});

const post = (body: string | object, headers?: Record<string, string>) =>
  request(sharedServer(), '/plants', { method: 'POST', token, body, headers });

describe('POST /plants with a valid NewPlant', () => {
  it('answers 200 with the stored plant as application/json', async () => {
    const id = uniqueId();
    const response = await post(`{"id": ${id}, "name": "Monstera", "tag": "aroid"}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.text).toBe(`{"id":${id},"name":"Monstera","tag":"aroid"}`);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('leaves tag out, never null, when none was given', async () => {
    const id = uniqueId();
    const response = await post(`{"id": ${id}, "name": "Fern"}`);
    expect(response.status).toBe(200);
    expect(response.text).toBe(`{"id":${id},"name":"Fern"}`);
  });

  it('accepts a charset parameter and ignores unknown fields', async () => {
    const id = uniqueId();
    const response = await post(`{"id": ${id}, "name": "Cactus", "colour": "green", "extra": {"a": [1, 2]}}`, {
      'content-type': 'application/json; charset=UTF-8',
    });
    expect(response.status).toBe(200);
    expect(response.text).toBe(`{"id":${id},"name":"Cactus"}`);
  });

  it('trims spaces around name and tag', async () => {
    const id = uniqueId();
    const response = await post(`{"id": ${id}, "name": "  Aloe vera ", "tag": " succulent "}`);
    expect(response.text).toBe(`{"id":${id},"name":"Aloe vera","tag":"succulent"}`);
  });

  it('keeps non-ASCII names intact', async () => {
    const id = uniqueId();
    const response = await post(`{"id": ${id}, "name": ${JSON.stringify('Ficus lyrata 🌿 — «Geige»')}}`);
    expect(response.status).toBe(200);
    expect((response.body as { name: string }).name).toBe('Ficus lyrata 🌿 — «Geige»');
  });
});

describe('int64 ids are stored and returned digit for digit', () => {
  for (const id of ['9007199254740993', '9223372036854775807', '-9223372036854775808', '-1', '0']) {
    it(`round-trips ${id}`, async () => {
      // Leftovers from an earlier run of this fixed id would make the create a conflict.
      await request(sharedServer(), `/plants/${id}`, { method: 'DELETE', token });
      const created = await post(`{"id": ${id}, "name": "Exact ${id}"}`);
      expect(created.status, created.text).toBe(200);
      expect(created.text).toBe(`{"id":${id},"name":"Exact ${id}"}`);
      const read = await request(sharedServer(), `/plants/${id}`, { token });
      expect(read.text).toBe(`{"id":${id},"name":"Exact ${id}"}`);
    });
  }

  for (const id of ['9223372036854775808', '-9223372036854775809', '100000000000000000000000']) {
    it(`refuses ${id}, outside int64`, async () => {
      expectError(await post(`{"id": ${id}, "name": "Too big"}`), 400, 40002, /^id: must be at (most|least) -?\d+$/);
    });
  }
});

describe('bad ids are refused with 400', () => {
  const cases: [string, string][] = [
    ['a string', '"12"'],
    ['a fraction', '1.5'],
    ['an integral fraction', '1.0'],
    ['an exponent', '1e3'],
    ['a boolean', 'true'],
    ['null', 'null'],
    ['an object', '{"value": 1}'],
  ];
  for (const [label, literal] of cases) {
    it(`refuses ${label}`, async () => {
      expectError(await post(`{"id": ${literal}, "name": "Bad id"}`), 400, 40002, /^id: must be an integer/);
    });
  }

  it('refuses a missing id', async () => {
    expectError(await post('{"name": "No id"}'), 400, 40002, 'id: is required');
  });
});

describe('bad names and tags are refused with 400, naming field and rule', () => {
  const id = () => uniqueId().toString();
  it.each([
    ['missing', (i: string) => `{"id": ${i}}`, 'name: is required'],
    ['empty', (i: string) => `{"id": ${i}, "name": ""}`, 'name: must not be empty'],
    ['blank', (i: string) => `{"id": ${i}, "name": "   "}`, 'name: must not be empty'],
    ['not a string', (i: string) => `{"id": ${i}, "name": 42}`, 'name: must be a string'],
    ['null', (i: string) => `{"id": ${i}, "name": null}`, 'name: must be a string'],
    ['too long', (i: string) => `{"id": ${i}, "name": "${'x'.repeat(201)}"}`, 'name: must be at most 200 characters'],
    ['a control character', (i: string) => `{"id": ${i}, "name": "a\\u0000b"}`, 'name: must not contain control characters'],
    ['empty tag', (i: string) => `{"id": ${i}, "name": "ok", "tag": ""}`, /^tag: must not be empty/],
    ['null tag', (i: string) => `{"id": ${i}, "name": "ok", "tag": null}`, /^tag: must be a string/],
    ['numeric tag', (i: string) => `{"id": ${i}, "name": "ok", "tag": 7}`, /^tag: must be a string/],
    ['too long tag', (i: string) => `{"id": ${i}, "name": "ok", "tag": "${'t'.repeat(101)}"}`, 'tag: must be at most 100 characters'],
  ])('refuses a name or tag that is %s', async (_label, body, message) => {
    const identifier = id();
    expectError(await post(body(identifier)), 400, 40002, message);
    expectError(await request(sharedServer(), `/plants/${identifier}`, { token }), 404, 40401);
  });

  it('names every broken field at once', async () => {
    const message = expectError(await post('{"id": "x", "name": ""}'), 400, 40002);
    expect(message).toContain('id: must be an integer');
    expect(message).toContain('name: must not be empty');
  });
});

describe('bodies that are not a JSON object', () => {
  it.each([
    ['an array', '[{"id": 1, "name": "x"}]', 40002, 'Request body must be a JSON object, not an array'],
    ['a string', '"plant"', 40002, 'Request body must be a JSON object, not a string'],
    ['a number', '12', 40002, 'Request body must be a JSON object, not a number'],
    ['null', 'null', 40002, 'Request body must be a JSON object, not null'],
    ['empty', '', 40001, 'Request body is empty: send a JSON object'],
    ['only spaces', '   ', 40001, 'Request body is empty: send a JSON object'],
    ['malformed', '{"id": 1, "name": ', 40001, /^Request body is not valid JSON/],
    ['trailing garbage', '{"id": 1, "name": "x"} x', 40001, /^Request body is not valid JSON/],
    ['single quotes', "{'id': 1, 'name': 'x'}", 40001, /^Request body is not valid JSON/],
  ])('refuses %s', async (_label, body, code, message) => {
    expectError(await post(body), 400, code, message);
  });

  it('refuses invalid UTF-8', async () => {
    const response = await fetch(`${sharedServer().url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from([0x7b, 0x22, 0x6e, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
    });
    const text = await response.text();
    expectError({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 400, 40001);
  });

  it('does not let __proto__ stand in for fields', async () => {
    const id = uniqueId();
    expectError(await post(`{"id": ${id}, "__proto__": {"name": "sneaky"}}`), 400, 40002, 'name: is required');
  });

  it('refuses duplicate keys, whether they agree or not, however they are spelled', async () => {
    const id = uniqueId();
    expectError(await post(`{"id": ${id}, "name": "a", "name": "b"}`), 400, 40001, 'Request body is not valid JSON: Duplicate key "name"');
    expectError(await post(`{"id": ${id}, "name": "a", "n\\u0061me": "a"}`), 400, 40001, 'Request body is not valid JSON: Duplicate key "name"');
    expect((await request(sharedServer(), `/plants/${id}`, { token })).status).toBe(404);
  });
});

describe('media type and size', () => {
  it.each([
    ['no content type', undefined],
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['a JSON look-alike', 'application/jsonp'],
    ['a non-UTF-8 charset', 'application/json; charset=latin1'],
  ])('answers 415 for %s', async (_label, contentType) => {
    const response = await fetch(`${sharedServer().url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
      body: `{"id": ${uniqueId()}, "name": "x"}`,
    });
    const text = await response.text();
    expectError({ status: response.status, headers: response.headers, text, body: JSON.parse(text) }, 415, 41501, /^(Content-Type must be application\/json|JSON must be encoded as UTF-8)/);
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const body = `{"id": ${uniqueId()}, "name": "x", "padding": "${'p'.repeat(70 * 1024)}"}`;
    expectError(await post(body), 413, 41301, 'Request body must be at most 65536 bytes');
  });

  it('answers 413 to an endless chunked body long before it ends, without reading it all', async () => {
    // 64 MiB offered in 16 KiB chunks over a raw socket; a server that buffered the body before
    // answering would take all of it. The server may close the socket once it has answered, so
    // write errors after the answer are expected.
    const offered = 64 * 1024 * 1024;
    const { port, hostname } = new URL(sharedServer().url);
    const chunk = Buffer.from(`4000\r\n${' '.repeat(0x4000)}\r\n`);
    let written = 0;
    // Writes while the socket takes them, until the answer comes (the exchange then closes it).
    const flood = (socket: Socket) => {
      const pump = () => {
        while (written < offered && !socket.destroyed) {
          written += 0x4000;
          if (!socket.write(chunk)) return void socket.once('drain', pump);
        }
      };
      pump();
    };
    const head = requestBytes([
      'POST /plants HTTP/1.1',
      `Host: ${hostname}`,
      `Authorization: Bearer ${token}`,
      'Content-Type: application/json',
      'Transfer-Encoding: chunked',
      'Connection: close',
    ]);
    const exchange = await rawExchange(Number(port), [
      { bytes: head, methods: [] },
      { bytes: flood, methods: ['POST'] },
    ], { timeoutMs: 30_000 });
    const [answer] = exchange.responses;
    expect(answer?.status, exchange.ending).toBe(413);
    expect(answer.text).toContain('{"error":41301,"message":"Request body must be at most 65536 bytes"}');
    expect(written).toBeLessThan(offered / 4);
  });

  it('accepts a body just under the limit', async () => {
    const id = uniqueId();
    const prefix = `{"id": ${id}, "name": "big", "padding": "`;
    const body = `${prefix}${'p'.repeat(64 * 1024 - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    expect((await post(body)).status).toBe(200);
  });
});

describe('other methods', () => {
  it.each([
    ['PUT', '/plants', 'GET, HEAD, POST, OPTIONS'],
    ['PATCH', '/plants', 'GET, HEAD, POST, OPTIONS'],
    ['DELETE', '/plants', 'GET, HEAD, POST, OPTIONS'],
    ['POST', '/plants/1', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
    ['PUT', '/plants/1', 'GET, HEAD, PATCH, DELETE, OPTIONS'],
  ])('answer 405 to %s %s with Allow', async (method, path, allow) => {
    const response = await request(sharedServer(), path, { method, token, body: '{}' });
    expectError(response, 405, 40501, new RegExp(`^${method} is not supported here`));
    expect(response.headers.get('allow')).toBe(allow);
  });
});
