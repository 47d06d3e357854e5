// The production server answers the API's route handlers without Next's router
// (server/direct-routes.mjs). Whatever it answers, Next must have answered the same way: the same
// requests go to a server with API_DIRECT_ROUTES=off on the same database, and the answers are
// compared field by field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../lib/http/body';
import { plantEtag } from '../../lib/plants/etag';
import { createTestDatabase, testEngine, tokenIn } from '../support/database';
import { createOn, requestOn, startServer, type RunningServer, type ServerResponse } from '../support/server';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let direct: RunningServer;
let throughNext: RunningServer;
let token: string;

beforeAll(async () => {
  // A database of their own, so lists read the same on both servers while other files run.
  const database = await createTestDatabase();
  cleanups.push(database.remove);
  ({ token } = await tokenIn(database.url, 'parity'));
  [direct, throughNext] = await Promise.all([
    startServer({ databaseUrl: database.url }),
    startServer({ databaseUrl: database.url, env: { API_DIRECT_ROUTES: 'off' } }),
  ]);
  cleanups.push(() => direct.stop('SIGKILL'), () => throughNext.stop('SIGKILL'));
  // Enough plants that a page of 100 is worth compressing.
  for (let id = 1; id <= 60; id++) {
    expect((await createOn(direct, token, `{"id": ${id}, "name": "Plant number ${id}", "tag": "parity"}`)).status).toBe(200);
  }
}, 60_000);

// Headers that differ between any two answers, or by transport, and two deliberate differences:
// Next gzips even a 30-byte body (making it longer), the direct path only bodies of 1 KiB or
// more; and Next's Vary also names its router's headers. Both are checked separately below.
const VARYING = new Set([
  'date',
  'x-request-id',
  'ratelimit-reset',
  'ratelimit-remaining',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'vary',
]);

function comparable(response: ServerResponse) {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !VARYING.has(name)));
  return { status: response.status, headers, text: response.text };
}

const bearer = () => ({ authorization: `Bearer ${token}` });
const json = () => ({ ...bearer(), 'content-type': 'application/json' });

// Those marked 'next' go to Next on the direct server too: derived methods, escapes, redirects.
const exchanges: [string, string, () => RequestInit, ('direct' | 'next')?][] = [
  ['a replayed create', '/plants', () => ({ method: 'POST', headers: json(), body: '{"id": 1, "name": "Plant number 1", "tag": "parity"}' })],
  ['a conflicting create', '/plants', () => ({ method: 'POST', headers: json(), body: '{"id": 1, "name": "Other"}' })],
  ['malformed JSON', '/plants', () => ({ method: 'POST', headers: json(), body: '{"id": 1,' })],
  ['a schema violation', '/plants', () => ({ method: 'POST', headers: json(), body: '{"id": -1, "name": ""}' })],
  ['the wrong media type', '/plants', () => ({ method: 'POST', headers: { ...bearer(), 'content-type': 'text/plain' }, body: '{}' })],
  ['a body over the limit', '/plants', () => ({ method: 'POST', headers: json(), body: `{"id": 1, "name": "${'x'.repeat(BODY_LIMIT_BYTES)}"}` })],
  ['a body four times the limit', '/plants', () => ({ method: 'POST', headers: json(), body: 'x'.repeat(4 * BODY_LIMIT_BYTES + 10) })],
  ['no token', '/plants', () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id": 1, "name": "A"}' })],
  ['an unknown token', '/plants/1', () => ({ headers: { authorization: 'Bearer pst_unknown' } })],
  ['a page', '/plants?limit=2', () => ({ headers: bearer() })],
  ['a large page, gzipped', '/plants?limit=100', () => ({ headers: { ...bearer(), 'accept-encoding': 'gzip' } })],
  ['a large page, not gzipped', '/plants?limit=100', () => ({ headers: { ...bearer(), 'accept-encoding': 'identity' } })],
  ['a bad limit', '/plants?limit=0', () => ({ headers: bearer() })],
  ['one plant', '/plants/2', () => ({ headers: bearer() })],
  ['a missing plant', '/plants/999999', () => ({ headers: bearer() })],
  ['a malformed id', '/plants/abc', () => ({ headers: bearer() })],
  ['an escaped id', '/plants/%33', () => ({ headers: bearer() }), 'next'],
  ['a trailing slash', '/plants/', () => ({ headers: bearer(), redirect: 'manual' }), 'next'],
  ['an unsupported method', '/plants', () => ({ method: 'PUT', headers: bearer() })],
  ['HEAD', '/plants/2', () => ({ method: 'HEAD', headers: bearer() }), 'next'],
  ['OPTIONS', '/plants', () => ({ method: 'OPTIONS' }), 'next'],
  // The catalogue's operations (issue 15). PATCH and conditional requests are answered directly;
  // batch, export and next-id go to Next on both servers.
  ['a search', '/plants?q=NUMBER%201&tag=parity&limit=5', () => ({ headers: bearer() })],
  ['a bad search', '/plants?q=a%01b', () => ({ headers: bearer() })],
  ['a merge patch', '/plants/3', () => ({ method: 'PATCH', headers: { ...bearer(), 'content-type': 'application/merge-patch+json' }, body: '{"tag": "patched"}' })],
  ['a stale If-Match', '/plants/3', () => ({ method: 'PATCH', headers: { ...json(), 'if-match': '"stale"' }, body: '{"tag": null}' })],
  ['a malformed If-Match', '/plants/3', () => ({ method: 'DELETE', headers: { ...bearer(), 'if-match': 'stale' } })],
  ['a matching If-None-Match', '/plants/2', () => ({ headers: { ...bearer(), 'if-none-match': plantEtag({ id: 2n, name: 'Plant number 2', tag: 'parity' }) } })],
  ['a patch of a wrong media type', '/plants/3', () => ({ method: 'PATCH', headers: { ...bearer(), 'content-type': 'text/plain' }, body: '{}' })],
  ['a batch', '/plants/batch', () => ({ method: 'POST', headers: json(), body: '[{"id": 1, "name": "Plant number 1", "tag": "parity"}, {"id": 1, "name": "Other"}, {}]' }), 'next'],
  ['a batch that is not an array', '/plants/batch', () => ({ method: 'POST', headers: json(), body: '{}' }), 'next'],
  ['GET on the batch', '/plants/batch', () => ({ headers: bearer() }), 'next'],
  ['an export', '/plants/export?q=number%205', () => ({ headers: bearer() }), 'next'],
  ['the next free id', '/plants/next-id', () => ({ headers: bearer() }), 'next'],
];

describe.skipIf(testEngine() !== 'sqlite')('route handlers answered directly', () => {
  it.each(exchanges)('answer %s exactly as Next does', async (_label, pathname, init, answeredBy = 'direct') => {
    const viaNext = await requestOn(throughNext, pathname, init());
    const viaDirect = await requestOn(direct, pathname, init());
    expect(comparable(viaDirect)).toEqual(comparable(viaNext));
    if (/json/.test(viaNext.headers.get('content-type') ?? '')) {
      expect(viaDirect.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(viaNext.headers.get('vary')).toMatch(/Accept-Encoding/);
      expect(viaDirect.headers.get('vary')).toBe(answeredBy === 'direct' ? 'Accept-Encoding' : viaNext.headers.get('vary'));
    }
  });

  it('gzip a large page when asked, and only then', async () => {
    const page = (encoding: string) => requestOn(direct, '/plants?limit=100', { headers: { ...bearer(), 'accept-encoding': encoding } });
    const gzipped = await page('gzip');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect((gzipped.body as unknown[]).length).toBe(60);
    expect((await page('identity')).headers.get('content-encoding')).toBeNull();
    const small = await requestOn(direct, '/plants/2', { headers: { ...bearer(), 'accept-encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('content-length')).toBe(String(small.text.length));
  });

  it('delete as Next does, and the plant is gone for both', async () => {
    for (const [server, id] of [[direct, 41], [throughNext, 42]] as const) {
      const deleted = await requestOn(server, `/plants/${id}`, { method: 'DELETE', headers: bearer() });
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
    }
    for (const server of [direct, throughNext]) {
      for (const id of [41, 42]) expect((await requestOn(server, `/plants/${id}`, { headers: bearer() })).status).toBe(404);
    }
  });

  it('are what the production server does (and Next is not asked)', async () => {
    const viaDirect = await requestOn(direct, '/plants/2', { headers: bearer() });
    const viaNext = await requestOn(throughNext, '/plants/2', { headers: bearer() });
    expect(viaNext.headers.get('vary')).toMatch(/\brsc\b/);
    expect(viaDirect.headers.get('vary')).toBe('Accept-Encoding');
    expect(direct.output()).toMatch(/route handlers answered directly: \/plants, \/plants\/\[id\]/);
  });
});
