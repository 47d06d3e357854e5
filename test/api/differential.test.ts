// The direct path (server/direct-routes.ts) must answer every request exactly as Next's router
// does, except for the deliberate differences docs/testing.md lists. This sends the same bytes, over
// raw sockets, to two production servers, one direct and one with API_DIRECT_ROUTES=off, and
// compares what a client can see: status, Error code, body, and every header but the framing ones
// (test/support/differential.ts says which, and what is normalised: request ids, timestamps,
// nonces, the seconds left in a rate-limit window).
//
// State: each server has a database of its own, the second a copy of the first made before either
// server starts (same tokens, same everything). Every request goes to both, so both databases see
// the same writes in the same order and stay identical: a create on one is a create on the other,
// ids, sequences and cursors included. One database shared by both servers would make every write
// answer differently (the second server would see the first server's create and answer with a
// replay), and on PostgreSQL the two would share rate-limit counts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plantEtag } from '../../lib/plants/etag';
import { awayFromWindowEnd, startOfWindow } from '../support/clock';
import { copyTestDatabase, tokenIn, type TestDatabase } from '../support/database';
import { test as base, type OwnServer, type OwnServerOptions } from '../support/fixtures';
import {
  answerFaults,
  compareExchanges,
  credentials,
  DELIBERATE_DIFFERENCES,
  requestOf,
  utf8InHead,
  type Comparison,
  type CountDrift,
  type RequestSpec,
} from '../support/differential';
import { generatedRequest, generatedSteps, type GeneratedRequest } from '../support/generated-requests';
import { bytesOf, chunked, headerValue, rawExchange, type RawExchange, type RawStep } from '../support/raw-socket';
import type { RunningServer } from '../support/server';
import { csrfOn } from '../support/sign-in';

// Both servers: limits out of the way of the corpus (the limits' own cases use a third token and
// a separate pair of servers), short body timeouts so that bodies that never arrive end quickly.
const BODY_TIMEOUT_MS = 1000;
const SERVER_ENV = {
  AUTH_FAILURES_PER_MINUTE: 'off',
  RATE_LIMIT_PER_MINUTE: '1000000',
  CRON_SECRET: credentials.cron,
  BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
};
// How long a case waits for an answer that may never come (a body that stops short).
const SLOW_MS = BODY_TIMEOUT_MS + 2500;
const SEED_PLANTS = 30;
// Replay a failed generated run with DIFFERENTIAL_SEED=<the seed it printed>.
const GENERATED_SEED = Number(process.env.DIFFERENTIAL_SEED ?? 1311);
const GENERATED_RUNS = Number(process.env.DIFFERENTIAL_RUNS ?? 300);

type Case = {
  name: string;
  /** The requests of each step, written together (pipelined); a step waits for its answers. */
  steps: (RequestSpec | { raw: () => string | Buffer; methods: string[] })[][];
  /** Half-close the connection after the last write. */
  end?: boolean;
  timeoutMs?: number;
};

const one = (name: string, spec: RequestSpec, options: Partial<Case> = {}): Case => ({ name, steps: [[spec]], ...options });
const pipelined = (name: string, specs: RequestSpec[], options: Partial<Case> = {}): Case => ({ name, steps: [specs], ...options });
const inTurn = (name: string, specs: RequestSpec[], options: Partial<Case> = {}): Case => ({ name, steps: specs.map((spec) => [spec]), ...options });
const raw = (name: string, bytes: () => string | Buffer, methods = ['GET'], options: Partial<Case> = {}): Case => ({
  name,
  steps: [[{ raw: bytes, methods }]],
  ...options,
});

const json = (value: unknown) => JSON.stringify(value);
const plant = (id: number, name = `Plant ${id}`, tag?: string) => json({ id, name, ...(tag ? { tag } : {}) });
const seedName = (id: number) => `Seed plant number ${id} of the differential test`;
const seedTag = (id: number) => (id % 2 ? 'seed' : undefined);
const seedEtag = (id: number) => plantEtag({ id: BigInt(id), name: seedName(id), ...(seedTag(id) ? { tag: seedTag(id) } : {}) });
const cursorAfter = (seq: number) => Buffer.from(`s${seq}`).toString('base64url');
const head = (lines: string[], body = '') => `${lines.join('\r\n')}\r\n\r\n${body}`;
const bearer = () => `Authorization: Bearer ${credentials.main}`;
const MERGE_PATCH = 'application/merge-patch+json';

const API_PATHS = ['/plants', '/plants/5', '/plants/batch', '/plants/export', '/plants/next-id', '/stats', '/audit-events', '/openapi.json', '/api/health', '/api/cron/retention', '/api/cron/webhooks'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** A plausible request of `method` on `path`: a valid body for the writes each path supports. */
function everyMethod(path: string, method: string, index: number): RequestSpec {
  const cron = path.startsWith('/api/cron/');
  const spec: RequestSpec = { method, target: path, auth: cron ? 'cron' : 'main' };
  if (path === '/plants' && method === 'POST') spec.body = plant(100 + index, 'Every method');
  else if (path === '/plants/batch' && method === 'POST') spec.body = json([{ id: 200 + index, name: 'In a batch' }, { id: 5, name: 'Conflict' }]);
  else if (path === '/plants/5' && method === 'PATCH') Object.assign(spec, { body: json({ tag: 'patched' }), contentType: MERGE_PATCH });
  else if (method === 'PATCH' || method === 'POST' || method === 'PUT') spec.body = json({ tag: 'x' });
  // The one deletion: a plant of its own, so /plants/5 stays for the later methods.
  if (path === '/plants/5' && method === 'DELETE') spec.target = '/plants/30';
  return spec;
}

const hugeHeader = () => `X-Padding: ${'p'.repeat(20_000)}`;
const deepArray = (depth: number) => `{"id": 60, "name": "Deep", "tag": ${'['.repeat(depth)}${']'.repeat(depth)}}`;
const deepObject = (depth: number) => `{"id": 61, "name": "Deep", "tag": ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
const manyKeys = (count: number) => `{"id": 62, "name": "Keys", ${Array.from({ length: count }, (_, i) => `"k${i}": ${i}`).join(', ')}}`;

const CORPUS: Case[] = [
  // Every method on every API path (and the benchmark's route, which the direct path also serves).
  ...API_PATHS.flatMap((path, p) => METHODS.map((method, m) => one(`${method} ${path}`, everyMethod(path, method, p * 10 + m)))),
  one('GET /api/bench/empty (not a benchmark run)', { target: '/api/bench/empty' }),
  one('POST /api/bench/empty (not a benchmark run)', { method: 'POST', target: '/api/bench/empty', body: '{}' }),
  one('GET /api/session-token without a session', { target: '/api/session-token', auth: 'none' }),
  one('an unknown method', { method: 'FOO', target: '/plants' }),
  one('a lowercase method', { method: 'get', target: '/plants/5' }),
  one('TRACE', { method: 'TRACE', target: '/plants' }),
  one('a cron route without the secret', { target: '/api/cron/retention', auth: 'none' }),
  one('a cron route with an API token', { target: '/api/cron/webhooks' }),

  // Request targets in origin, absolute and asterisk form (and some that are none of them).
  one('absolute form', { target: 'http://127.0.0.1/plants?limit=2' }),
  one('absolute form naming another host', { target: 'http://evil.example/plants?limit=2' }),
  one('absolute form with a port', { target: 'http://127.0.0.1:9/plants/1' }),
  one('absolute form, https', { target: 'https://127.0.0.1/plants/1' }),
  one('absolute form, uppercase scheme', { target: 'HTTP://127.0.0.1/plants/1' }),
  one('absolute form without a path', { target: 'http://127.0.0.1' }),
  one('absolute form with userinfo', { target: 'http://user:pw@127.0.0.1/plants/1' }),
  one('absolute form, a delete elsewhere', { method: 'DELETE', target: 'http://evil.example/plants/28' }),
  one('absolute form, a trailing slash elsewhere', { target: 'http://evil.example/plants/' }),
  one('absolute form, an empty query elsewhere', { target: 'http://evil.example/api/health?' }),
  one('absolute form, not a URL', { target: 'http://[nope/plants' }),
  one('a scheme without an authority', { target: 'mailto:someone@example.com' }),
  one('asterisk form, OPTIONS', { method: 'OPTIONS', target: '*' }),
  one('asterisk form, GET', { target: '*' }),
  raw('authority form, CONNECT', () => head(['CONNECT 127.0.0.1:80 HTTP/1.1', 'Host: 127.0.0.1:80'])),
  one('no leading slash', { target: 'plants' }),
  one('HTTP/1.0', { target: '/plants/1', version: 'HTTP/1.0' }),
  one('HTTP/1.0 without Host', { target: '/plants/1', version: 'HTTP/1.0', host: null }),
  one('HTTP/2.0 over HTTP/1 framing', { target: '/plants/1', version: 'HTTP/2.0' }),
  one('HTTP/1.2', { target: '/plants/1', version: 'HTTP/1.2' }),
  one('a lowercase version', { target: '/plants/1', version: 'http/1.1' }),
  raw('HTTP/0.9', () => 'GET /plants/1\r\n'),

  // Encoded, doubled, dotted, unicode, uppercase and very long paths.
  one('an encoded id', { target: '/plants/%31' }),
  one('an encoded path segment', { target: '/%70lants' }),
  one('an encoded slash', { target: '/plants%2F1' }),
  one('an encoded slash in the id', { target: '/plants/1%2F2' }),
  one('an encoded dot segment', { target: '/plants/%2e' }),
  one('an encoded double dot', { target: '/plants/%2e%2e' }),
  one('an encoded question mark', { target: '/plants%3Flimit=1' }),
  one('an encoded NUL', { target: '/plants/%00' }),
  one('a broken escape', { target: '/plants/%ZZ' }),
  one('a lone percent', { target: '/plants/%' }),
  one('an encoded unicode id', { target: '/plants/%D9%A1' }),
  one('an escape that is not UTF-8', { target: '/plants/%FF' }),
  one('a broken escape elsewhere', { target: '/nope/%ZZ' }),
  one('a broken escape, then a read, pipelined', { target: '/plants/%ZZ' }, { steps: [[{ target: '/plants/%ZZ' }, { target: '/plants/1' }]] }),
  one('a doubled leading slash', { target: '//plants' }),
  one('a doubled inner slash', { target: '/plants//1' }),
  one('a doubled trailing slash', { target: '/plants/1//' }),
  one('three leading slashes', { target: '///plants/1' }),
  one('a dot segment', { target: '/plants/./1' }),
  one('a double-dot segment', { target: '/plants/../plants' }),
  one('a leading dot segment', { target: '/./plants' }),
  one('a trailing dot', { target: '/plants/.' }),
  one('a trailing double dot', { target: '/plants/..' }),
  one('a double dot after the id', { target: '/plants/1/..' }),
  one('three dots', { target: '/plants/...' }),
  one('a climb out of another path', { target: '/x/../plants/1' }),
  one('a climb above the root', { target: '/../../plants/1' }),
  one('a raw unicode id', { target: utf8InHead('/plants/١') }),
  one('a raw unicode path', { target: utf8InHead('/plantś') }),
  one('an uppercase path', { target: '/PLANTS' }),
  one('a capitalised path', { target: '/Plants/1' }),
  one('an uppercase health path', { target: '/API/HEALTH' }),
  one('an uppercase document path', { target: '/OPENAPI.JSON' }),
  one('a long numeric id', { target: `/plants/${'1'.repeat(2000)}` }),
  one('a long id', { target: `/plants/${'a'.repeat(8000)}` }),
  one('a path over the head limit', { target: `/plants/${'9'.repeat(20_000)}` }),
  one('many segments', { target: `/${'plants/'.repeat(500)}1` }),
  one('a trailing slash', { target: '/plants/' }),
  one('a trailing slash after the id', { target: '/plants/1/' }),
  one('a trailing slash on health', { target: '/api/health/' }),
  one('a trailing slash on the document', { target: '/openapi.json/' }),
  one('a path parameter', { target: '/plants;x' }),
  one('a path parameter on the id', { target: '/plants/1;v=1' }),
  one('a fragment', { target: '/plants#frag' }),
  one('a fragment on the id', { target: '/plants/1#x' }),
  one('a backslash', { target: '/plants\\1' }),
  one('a plus sign', { target: '/plants/+1' }),
  one('minus zero', { target: '/plants/-0' }),
  one('a hexadecimal id', { target: '/plants/0x10' }),
  one('an exponent', { target: '/plants/1E3' }),
  one('a fraction', { target: '/plants/1.0' }),
  one('leading zeros', { target: '/plants/00001' }),
  one('a tilde', { target: '/plants/~1' }),
  one('the largest id', { target: '/plants/9223372036854775807' }),
  one('one past the largest id', { target: '/plants/9223372036854775808' }),
  one('one below the smallest id', { target: '/plants/-9223372036854775809' }),
  raw('a space in the path', () => head(['GET /plants/ 1 HTTP/1.1', 'Host: 127.0.0.1', bearer()])),
  raw('a tab in the path', () => head(['GET /plants/\t1 HTTP/1.1', 'Host: 127.0.0.1', bearer()])),
  raw('a control byte in the path', () => head(['GET /plants/\x011 HTTP/1.1', 'Host: 127.0.0.1', bearer()])),

  // Query strings: repeated, empty, encoded, huge.
  one('a repeated limit', { target: '/plants?limit=1&limit=2' }),
  one('an empty query', { target: '/plants?' }),
  one('only separators', { target: '/plants?&&&' }),
  one('an empty limit', { target: '/plants?limit=' }),
  one('a limit without a value', { target: '/plants?limit' }),
  one('an encoded name', { target: '/plants?%6Cimit=1' }),
  one('an encoded value', { target: '/plants?limit=%31' }),
  one('an encoded unicode search', { target: '/plants?q=%E2%9C%93' }),
  one('an invalid UTF-8 escape', { target: '/plants?q=%FF' }),
  one('a broken escape in the query', { target: '/plants?q=%' }),
  one('a raw unicode search', { target: utf8InHead('/plants?q=🌱') }),
  one('a long search', { target: `/plants?q=${'a'.repeat(8000)}` }),
  one('a huge query', { target: `/plants?x=${'y'.repeat(14_000)}&limit=1` }),
  one('a query over the head limit', { target: `/plants?x=${'y'.repeat(20_000)}` }),
  one('a garbage cursor', { target: '/plants?cursor=garbage' }),
  one('a cursor', { target: `/plants?limit=2&cursor=${cursorAfter(20)}` }),
  one('two cursors', { target: `/plants?cursor=${cursorAfter(20)}&cursor=${cursorAfter(10)}` }),
  one('a sort by name', { target: '/plants?sort=name&limit=3' }),
  one('a sort by id, descending, with the count', { target: '/plants?sort=-id&limit=2&count=true' }),
  one('a name cursor', { target: `/plants?sort=name&limit=2&cursor=${Buffer.from('n5.seed').toString('base64url')}` }),
  one('a cursor of another sort', { target: `/plants?sort=id&cursor=${cursorAfter(20)}` }),
  one('an unknown sort', { target: '/plants?sort=price' }),
  one('a count with a filter', { target: '/plants?count=true&q=seed&limit=1' }),
  one('a bad count', { target: '/plants?count=1' }),
  one('a repeated tag', { target: '/plants?tag=seed&tag=other' }),
  one('a search with plus signs', { target: '/plants?q=seed+plant&limit=3' }),
  one('a search with an encoded plus', { target: '/plants?q=a%2Bb' }),
  one('repeated parameters in the next link', { target: '/plants?limit=1&limit=2&q=seed&x=1&x=2' }),
  one('a fragment after the query', { target: '/plants?limit=2#frag' }),
  one('a limit over the maximum', { target: '/plants?limit=101' }),
  one('a negative limit', { target: '/plants?limit=-1' }),
  one('a fractional limit', { target: '/plants?limit=1.5' }),
  one('a query on health', { target: '/api/health?x=1' }),
  one('a query on one plant', { target: '/plants/5?limit=1' }),
  one('a query on the next id', { target: '/plants/next-id?x' }),
  one('the figures', { target: '/stats' }),
  one('the figures of 90 days', { target: '/stats?days=90' }),
  one('the figures of a range not offered', { target: '/stats?days=7' }),
  one('the figures, two ranges', { target: '/stats?days=30&days=90' }),
  one('a read-only token reading the figures', { target: '/stats', auth: 'readOnly' }),
  one('the figures without credentials', { target: '/stats', auth: 'none' }),
  one('an audit page', { target: '/audit-events?limit=1' }),
  one('audit records by action', { target: '/audit-events?action=plant.created&limit=2' }),
  one('audit records of a target', { target: '/audit-events?target=plant:5' }),
  one('audit records of an unknown actor', { target: '/audit-events?actor=nobody' }),
  one('audit records, a bad action', { target: '/audit-events?action=nope' }),
  one('an export by tag', { target: '/plants/export?tag=seed' }),
  one('an export with a bad search', { target: '/plants/export?q=a%01b' }),

  // Every Host form.
  ...(
    [
      ['missing', null],
      ['empty', ''],
      ['with a port', '127.0.0.1:3000'],
      ['a name', 'localhost'],
      ['IPv6', '[::1]'],
      ['IPv6 with a port', '[::1]:8080'],
      ['bare IPv6', '::1'],
      ['with a path', 'evil.example/x'],
      ['with spaces', 'a b'],
      ['with a query', 'evil.example?x=1'],
      ['with userinfo', 'user@evil.example'],
      ['with a fragment', 'evil.example#x'],
      ['unicode', utf8InHead('évil.example')],
      ['with a port out of range', 'example.com:99999'],
      ['with a port that is not a number', 'example.com:abc'],
      ['a list', '127.0.0.1, evil.example'],
      ['padded', '   127.0.0.1   '],
      ['long', `${'a'.repeat(1000)}.example`],
      ['with a percent escape', 'evil%2Eexample'],
    ] as const
  ).map(([form, host]) => one(`Host ${form}`, { target: '/plants?limit=2', host })),
  raw('two Host headers', () => head(['GET /plants?limit=2 HTTP/1.1', 'Host: 127.0.0.1', 'Host: evil.example', bearer()])),
  one('a delete with a Host naming another path', { method: 'DELETE', target: '/plants/29', host: '127.0.0.1:3977/api/health#' }),
  one('a create with a Host naming another path', { method: 'POST', target: '/plants', host: 'evil.example/x', body: plant(70) }),
  one('X-Forwarded-Host from an untrusted client', { target: '/plants?limit=2', headers: ['X-Forwarded-Host: evil.example', 'X-Forwarded-Proto: https', 'X-Forwarded-For: 203.0.113.9'] }),

  // Credentials.
  raw('two Authorization headers, the same', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', bearer(), bearer()])),
  raw('two Authorization headers, different', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'Authorization: Bearer pst_other'])),
  raw('a lowercase scheme', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', `Authorization: bearer ${credentials.main}`])),
  raw('two spaces after the scheme', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', `Authorization: Bearer  ${credentials.main}`])),
  one('Basic credentials', { target: '/plants/1', auth: { raw: 'Basic Zm9vOmJhcg==' } }),
  one('a scheme without a token', { target: '/plants/1', auth: { raw: 'Bearer' } }),
  one('an unknown token', { target: '/plants/1', auth: { raw: 'Bearer pst_unknown' } }),
  one('no credentials', { target: '/plants/1', auth: 'none' }),
  one('no credentials, a write', { method: 'POST', target: '/plants', auth: 'none', body: plant(71) }),
  one('a read-only token writing', { method: 'POST', target: '/plants', auth: 'readOnly', body: plant(72) }),
  one('a read-only token reading the audit trail', { target: '/audit-events', auth: 'readOnly' }),
  one('a read-only token deleting', { method: 'DELETE', target: '/plants/27', auth: 'readOnly' }),

  // Other headers: repeated, conditional, content negotiation, Expect.
  raw('two Content-Types', () => head(['POST /plants HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'Content-Type: application/json', 'Content-Type: text/plain', 'Content-Length: 27'], plant(73))),
  raw('two equal Content-Lengths', () => head(['POST /plants HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'Content-Type: application/json', 'Content-Length: 27', 'Content-Length: 27'], plant(74))),
  raw('two different Content-Lengths', () => head(['POST /plants HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'Content-Type: application/json', 'Content-Length: 27', 'Content-Length: 5'], plant(75))),
  one('a Content-Length that is not a number', { method: 'POST', target: '/plants', body: plant(76), contentLength: null, headers: ['Content-Length: abc'] }),
  one('a negative Content-Length', { method: 'POST', target: '/plants', body: plant(76), contentLength: null, headers: ['Content-Length: -1'] }),
  one('a large page, gzip accepted', { target: '/plants', headers: ['Accept-Encoding: gzip'] }),
  one('a small answer, gzip accepted', { target: '/plants/2', headers: ['Accept-Encoding: gzip'] }),
  one('a small error, gzip accepted', { target: '/plants/999', headers: ['Accept-Encoding: gzip, deflate, br'] }),
  one('gzip refused by q=0', { target: '/plants', headers: ['Accept-Encoding: gzip;q=0'] }),
  one('deflate only', { target: '/plants', headers: ['Accept-Encoding: deflate'] }),
  one('brotli only', { target: '/plants', headers: ['Accept-Encoding: br'] }),
  one('any encoding', { target: '/plants', headers: ['Accept-Encoding: *'] }),
  one('identity', { target: '/plants', headers: ['Accept-Encoding: identity'] }),
  one('two Accept-Encoding headers', { target: '/plants', headers: ['Accept-Encoding: identity', 'Accept-Encoding: gzip'] }),
  one('a large export, gzip accepted', { target: '/plants/export', headers: ['Accept-Encoding: gzip'] }),
  one('the document, gzip accepted', { target: '/openapi.json', headers: ['Accept-Encoding: gzip'] }),
  one('a request id of the caller', { target: '/plants/3', headers: ['X-Request-Id: caller-id-123'] }),
  one('a request id that is refused', { target: '/plants/3', headers: [`X-Request-Id: ${'x'.repeat(100)}`] }),
  one('a matching If-None-Match', { target: '/plants/2', headers: [`If-None-Match: ${seedEtag(2)}`] }),
  one('a weak matching If-None-Match', { target: '/plants/2', headers: [`If-None-Match: W/${seedEtag(2)}`] }),
  one('If-None-Match: *', { target: '/plants/2', headers: ['If-None-Match: *'] }),
  one('a malformed If-None-Match', { target: '/plants/2', headers: ['If-None-Match: nope'] }),
  one('a stale If-Match', { method: 'PATCH', target: '/plants/3', headers: ['If-Match: "stale"'], body: json({ tag: null }), contentType: MERGE_PATCH }),
  one('a matching If-Match', { method: 'PATCH', target: '/plants/3', headers: [`If-Match: ${seedEtag(3)}`], body: json({ name: 'Renamed' }), contentType: MERGE_PATCH }),
  one('a malformed If-Match on a delete', { method: 'DELETE', target: '/plants/3', headers: ['If-Match: stale'] }),
  one('Expect: 100-continue on a create', { method: 'POST', target: '/plants', headers: ['Expect: 100-continue'], body: plant(77) }),
  one('Expect: 100-continue on a read', { target: '/plants/1', headers: ['Expect: 100-continue'] }),
  one('an unknown expectation', { method: 'POST', target: '/plants', headers: ['Expect: teapot'], body: plant(78) }),
  one('Connection: close', { target: '/plants/1', headers: ['Connection: close'] }),
  one('a Content-Type with a latin1 charset', { method: 'POST', target: '/plants', contentType: 'application/json; charset=latin1', body: plant(79) }),
  one('an uppercase Content-Type', { method: 'POST', target: '/plants', contentType: 'APPLICATION/JSON', body: plant(80) }),
  one('text/plain', { method: 'POST', target: '/plants', contentType: 'text/plain', body: plant(81) }),
  one('no Content-Type', { method: 'POST', target: '/plants', contentType: null, body: plant(82) }),
  one('a merge patch as plain JSON', { method: 'PATCH', target: '/plants/4', body: json({ tag: 'plain' }) }),
  one('a patch of the wrong media type', { method: 'PATCH', target: '/plants/4', contentType: 'text/plain', body: json({ tag: 'x' }) }),
  raw('a folded header line', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'X-Folded: one', ' two'])),
  raw('a space in a header name', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'Bad Header: x'])),
  raw('a NUL in a header value', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'X-Nul: a\0b'])),
  raw('a header without a colon', () => head(['GET /plants/1 HTTP/1.1', 'Host: 127.0.0.1', bearer(), 'X-No-Colon'])),
  raw('bare LF line endings', () => `GET /plants/1 HTTP/1.1\nHost: 127.0.0.1\n${bearer()}\n\n`),
  one('a UTF-8 header value', { target: '/plants/1', headers: [utf8InHead('X-Name: Ünïcödé 🌱')] }),
  one('two hundred headers', { target: '/plants/1', headers: Array.from({ length: 200 }, (_, i) => `X-Many-${i}: ${i}`) }),
  one('a header over the head limit', { target: '/plants/1', headers: [hugeHeader()] }),

  // Transfer-Encoding variants.
  one('a chunked create', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: chunked(['{"id": 83,', ' "name": "Chunked"}']) }),
  one('chunk extensions', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: '1b;ext=1\r\n{"id": 84, "name": "Chunk x"}\r\n0\r\n\r\n' }),
  one('a chunked body with a trailer', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: chunked([plant(85)], ['X-Trailer: 1']) }),
  one('chunked and a Content-Length', { method: 'POST', target: '/plants', headers: ['Transfer-Encoding: chunked'], body: chunked([plant(86)]) }),
  one('gzip, chunked', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: gzip, chunked'], body: chunked([plant(87)]) }),
  one('Transfer-Encoding: identity', { method: 'POST', target: '/plants', headers: ['Transfer-Encoding: identity'], body: plant(88) }),
  one('an uppercase CHUNKED', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: CHUNKED'], body: chunked([plant(89)]) }),
  one('chunked, chunked', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked, chunked'], body: chunked([plant(90)]) }),
  one('two Transfer-Encoding headers', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked', 'Transfer-Encoding: chunked'], body: chunked([plant(91)]) }),
  one('a bad chunk size', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: 'zz\r\n{}\r\n0\r\n\r\n' }),
  one('a chunk longer than its size', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: '2\r\n{"id": 1}\r\n0\r\n\r\n' }),
  one('a chunked body that never ends', { method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: '5\r\n{"id"' }, { timeoutMs: SLOW_MS }),
  one('a chunked body on an unsupported method', { method: 'PUT', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: chunked(['{}']) }),

  // Bodies: missing, short, oversized, deep, wide, odd.
  one('a create without a body', { method: 'POST', target: '/plants', contentType: 'application/json' }),
  one('a create with Content-Length: 0', { method: 'POST', target: '/plants', body: '' }),
  one('a short body', { method: 'POST', target: '/plants', body: '{"id": 92', contentLength: 100 }, { timeoutMs: SLOW_MS }),
  one('a short body, then the client stops sending', { method: 'POST', target: '/plants', body: '{"id": 93', contentLength: 100 }, { end: true, timeoutMs: SLOW_MS }),
  one('a body over the limit', { method: 'POST', target: '/plants', body: plant(94, 'x'.repeat(70 * 1024)) }),
  one('a body over the direct cap', { method: 'POST', target: '/plants', body: 'x'.repeat(300 * 1024) }),
  one('a large declared body, not sent, without credentials', { method: 'POST', target: '/plants', auth: 'none', contentLength: 200_000, contentType: 'application/json' }, { timeoutMs: SLOW_MS }),
  one('a large declared body, not sent', { method: 'POST', target: '/plants', contentLength: 200_000, contentType: 'application/json' }, { timeoutMs: SLOW_MS }),
  one('a batch over its limit', { method: 'POST', target: '/plants/batch', body: `[${'1,'.repeat(1_100_000)}1]` }),
  one('a batch of too many items', { method: 'POST', target: '/plants/batch', body: json(Array.from({ length: 1001 }, (_, i) => ({ id: 1000 + i, name: 'n' }))) }),
  one('a deeply nested array', { method: 'POST', target: '/plants', body: deepArray(20_000) }),
  one('a deeply nested object', { method: 'POST', target: '/plants', body: deepObject(5000) }),
  one('a deeply nested batch', { method: 'POST', target: '/plants/batch', body: `${'['.repeat(30_000)}${']'.repeat(30_000)}` }),
  one('many keys', { method: 'POST', target: '/plants', body: manyKeys(5000) }),
  one('many keys in a patch', { method: 'PATCH', target: '/plants/6', body: manyKeys(3000), contentType: MERGE_PATCH }),
  one('a body that is not UTF-8', { method: 'POST', target: '/plants', body: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }),
  one('a byte order mark', { method: 'POST', target: '/plants', body: `\uFEFF${plant(95)}` }),
  one('duplicate keys', { method: 'POST', target: '/plants', body: '{"id": 96, "name": "a", "name": "b"}' }),
  one('an id past int64', { method: 'POST', target: '/plants', body: '{"id": 9223372036854775808, "name": "Big"}' }),
  one('a create with the largest id', { method: 'POST', target: '/plants', body: '{"id": 9223372036854775807, "name": "Largest"}' }),
  one('an id as a string', { method: 'POST', target: '/plants', body: '{"id": "97", "name": "String id"}' }),
  one('a unicode name', { method: 'POST', target: '/plants', body: plant(98, 'Fícus 🌿 ლ') }),
  one('a NUL in a name', { method: 'POST', target: '/plants', body: plant(99, 'a\u0000b') }),
  one('trailing bytes after the JSON', { method: 'POST', target: '/plants', body: `${plant(180)}x` }),
  one('an array body', { method: 'POST', target: '/plants', body: '[]' }),
  one('a null body', { method: 'POST', target: '/plants', body: 'null' }),
  one('a replayed create', { method: 'POST', target: '/plants', body: json({ id: 1, name: seedName(1), tag: 'seed' }) }),
  one('a conflicting create', { method: 'POST', target: '/plants', body: plant(1, 'Other') }),
  one('a patch with an empty body', { method: 'PATCH', target: '/plants/6', body: '', contentType: MERGE_PATCH }),
  one('a patch of a missing plant', { method: 'PATCH', target: '/plants/999', body: json({ tag: 'x' }), contentType: MERGE_PATCH }),
  one('a delete of a missing plant', { method: 'DELETE', target: '/plants/999' }),
  one('GET with a body', { target: '/plants', body: 'hello', contentType: null }),
  one('GET with an empty chunked body', { target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: '0\r\n\r\n' }),
  one('GET of one plant with a body', { target: '/plants/1', body: '{}' }),
  one('HEAD with a body', { method: 'HEAD', target: '/plants/1', body: 'hello', contentType: null }),
  one('DELETE with a body', { method: 'DELETE', target: '/plants/26', body: '{"why": "because"}' }),
  one('OPTIONS with a body', { method: 'OPTIONS', target: '/plants', body: 'hello', contentType: null }),
  one('a body on the document', { target: '/openapi.json', body: 'x', contentType: null }),

  // Pipelined requests and keep-alive reuse after an error.
  pipelined('two reads, pipelined', [{ target: '/plants/1' }, { target: '/plants/2' }]),
  pipelined('GET, HEAD, GET, pipelined', [{ target: '/plants/1' }, { method: 'HEAD', target: '/plants/1' }, { target: '/plants?limit=2' }]),
  // Node runs pipelined requests side by side (a read of a plant created just before it in the
  // pipeline runs first and answers 404, on both paths; RFC 9112 §9.3.2 allows that only for safe
  // methods), so writes are pipelined only with requests that do not depend on them.
  pipelined('a create, then a read, pipelined', [{ method: 'POST', target: '/plants', body: plant(181) }, { target: '/plants/1' }]),
  pipelined('malformed JSON, then a read, pipelined', [{ method: 'POST', target: '/plants', body: '{"id": 1,' }, { target: '/plants/1' }]),
  pipelined('GET with a body, then a read, pipelined', [{ target: '/plants', body: 'hello', contentType: null }, { target: '/plants/1' }]),
  pipelined('a body over the limit, then a read, pipelined', [{ method: 'POST', target: '/plants', body: plant(182, 'x'.repeat(70 * 1024)) }, { target: '/plants/1' }]),
  pipelined('a chunked create, then a read, pipelined', [{ method: 'POST', target: '/plants', contentLength: null, headers: ['Transfer-Encoding: chunked'], body: chunked([plant(183)]) }, { target: '/plants/1' }]),
  pipelined('Connection: close, then another request', [{ target: '/plants/1', headers: ['Connection: close'] }, { target: '/plants/2' }]),
  pipelined('a request on every path, pipelined', API_PATHS.map((target) => ({ target, auth: 'main' as const }))),
  {
    name: 'a valid request, then garbage, pipelined',
    steps: [[{ target: '/plants/1' }, { raw: () => 'NOT HTTP AT ALL\r\n\r\n', methods: ['GET'] }]],
  },
  inTurn('keep-alive after a 404', [{ target: '/plants/999' }, { target: '/plants/1' }]),
  inTurn('keep-alive after a 405', [{ method: 'PUT', target: '/plants' }, { target: '/plants/1' }]),
  inTurn('keep-alive after a 401', [{ target: '/plants/1', auth: 'none' }, { target: '/plants/1' }]),
  inTurn('keep-alive after a 400', [{ method: 'POST', target: '/plants', body: '{' }, { target: '/plants/1' }]),
  inTurn('keep-alive after a 413', [{ method: 'POST', target: '/plants', body: 'x'.repeat(70 * 1024) }, { target: '/plants/1' }]),
  inTurn('keep-alive after a 415', [{ method: 'POST', target: '/plants', body: '{}', contentType: 'text/plain' }, { target: '/plants/1' }]),
  inTurn('keep-alive after a 304', [{ target: '/plants/2', headers: [`If-None-Match: ${seedEtag(2)}`] }, { target: '/plants/2' }]),
  inTurn('keep-alive after a delete', [{ method: 'DELETE', target: '/plants/25' }, { target: '/plants/25' }]),
  inTurn('keep-alive after GET with a body', [{ target: '/plants', body: 'hello', contentType: null }, { target: '/plants/1' }]),
  inTurn('keep-alive after a bad Host', [{ target: '/plants/1', host: 'a b' }, { target: '/plants/1' }]),
  inTurn('HTTP/1.0 keep-alive after a 304', [
    { target: '/plants/2', version: 'HTTP/1.0', headers: ['Connection: keep-alive', `If-None-Match: ${seedEtag(2)}`] },
    { target: '/plants/2', version: 'HTTP/1.0', headers: ['Connection: keep-alive'] },
  ]),
  inTurn('HTTP/1.0 keep-alive', [
    { target: '/plants/1', version: 'HTTP/1.0', headers: ['Connection: keep-alive'] },
    { target: '/plants/2', version: 'HTTP/1.0', headers: ['Connection: keep-alive'] },
  ]),
  inTurn('keep-alive through every path', API_PATHS.map((target) => ({ target }))),
];

let direct: RunningServer;
let throughNext: RunningServer;

// The file's database with the tokens of the cases, and its copy made once they are in it (removed
// once the servers on it have stopped: startPair).
const test = base.extend('databases', { scope: 'file' }, async ({ ownDatabase }) => {
  credentials.main = (await tokenIn(ownDatabase.url, 'differential', ['plants:read', 'plants:write', 'audit:read'])).token;
  credentials.readOnly = (await tokenIn(ownDatabase.url, 'read-only', ['plants:read'])).token;
  credentials.limited = (await tokenIn(ownDatabase.url, 'limited')).token;
  const copy = await copyTestDatabase(ownDatabase);
  return [ownDatabase, copy] as const;
});

function stepsOf(testCase: Case): RawStep[] {
  return testCase.steps.map((specs) => {
    const requests = specs.map((spec) => {
      if (!('raw' in spec)) {
        const { bytes, method } = requestOf(spec);
        return { bytes, methods: [method] };
      }
      const bytes = spec.raw();
      return { bytes: typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes, methods: spec.methods };
    });
    return { bytes: Buffer.concat(requests.map((request) => request.bytes)), methods: requests.flatMap((request) => request.methods) };
  });
}

// A rate-limit window is a minute of the servers' clocks, which move together; a request counted
// just before the minute on one server and just after on the other would leave their counts apart
// for the rest of the run. So nothing is sent in the last 1.5 s of a minute: the clocks skip them.
const awayFromMinuteBoundary = (pair: Pair) => awayFromWindowEnd(1500, pair.direct.clock, pair.throughNext.clock);

/** Sends the same bytes to both servers at once, and compares what came back. */
type Pair = { direct: RunningServer; throughNext: RunningServer };
const drifts = new WeakMap<RunningServer, CountDrift>();

/**
 * How far apart the servers' counts are once everything sent has been counted. A reading is a
 * counted request to each server, which leaves the difference as it is; so once two readings in a
 * row agree (within a deadline), nothing sent earlier was counted between them.
 */
async function countsApartNow(pair: Pair): Promise<number> {
  const probe = stepsOf(one('count probe', { target: '/plants/1' }));
  const remaining = async (server: RunningServer) =>
    Number(headerValue((await rawExchange(server.port, probe, { timeoutMs: 3000 })).responses[0], 'ratelimit-remaining'));
  const reading = async () => (await remaining(pair.throughNext)) - (await remaining(pair.direct));
  const deadline = Date.now() + 5000;
  for (let last = await reading(); ; ) {
    const now = await reading();
    if (now === last || Date.now() > deadline) return now;
    last = now;
  }
}

async function differential(steps: RawStep[], options: { end?: boolean; timeoutMs?: number } = {}, pair: Pair = { direct, throughNext }) {
  await awayFromMinuteBoundary(pair);
  const exchange = (server: RunningServer) => rawExchange(server.port, steps, { endAfterWrite: options.end, timeoutMs: options.timeoutMs ?? 3000 });
  const [viaNext, viaDirect] = await Promise.all([exchange(pair.throughNext), exchange(pair.direct)]);
  if (!drifts.has(pair.direct)) drifts.set(pair.direct, { remaining: 0 });
  const drift = drifts.get(pair.direct)!;
  const before = drift.remaining;
  const comparison = compareExchanges(viaNext, viaDirect, drift);
  // An earlier request still being answered when its exchange stopped waiting (one sent slowly,
  // under a loaded machine) is counted during a later exchange, before its count on one server and
  // after it on the other: the counts this exchange saw are apart by one, for this exchange only.
  // Whether the paths count alike is whether the servers are as far apart as before once all has
  // been counted; only a lasting shift is a difference.
  if (drift.remaining !== before && (await countsApartNow(pair)) === before) {
    drift.remaining = before;
    comparison.differences = comparison.differences.filter((difference) => !difference.startsWith('ratelimit-remaining: '));
  }
  const faults = [...answerFaults(viaNext).map((fault) => `Next: ${fault}`), ...answerFaults(viaDirect).map((fault) => `direct: ${fault}`)];
  return { viaNext, viaDirect, comparison, faults };
}

function report(comparison: Comparison, viaNext: RawExchange, viaDirect: RawExchange, steps: RawStep[]): string {
  const sent = bytesOf(steps);
  return [
    `sent: ${JSON.stringify(sent.length > 600 ? `${sent.slice(0, 600)}…(${sent.length} bytes)` : sent)}`,
    `Next (${viaNext.ending}): ${JSON.stringify(comparison.viaNext).slice(0, 1500)}`,
    `direct (${viaDirect.ending}): ${JSON.stringify(comparison.viaDirect).slice(0, 1500)}`,
  ].join('\n');
}

/**
 * The direct server on `database`, the one through Next's router on `copy`; both stopped when the
 * file ends, and `copy` removed once they have (each pair asks; a second removal does nothing).
 */
async function startPair(
  startFileServer: (options: OwnServerOptions) => Promise<OwnServer>,
  [database, copy]: readonly [TestDatabase, TestDatabase],
  env: Record<string, string>,
): Promise<Pair> {
  const [first, second] = await Promise.all([
    startFileServer({ database, env }),
    startFileServer({ database: copy, removeDatabaseAfter: true, env: { ...env, API_DIRECT_ROUTES: 'off' } }),
  ]);
  return { direct: first, throughNext: second };
}

test.beforeAll(async ({ databases, startFileServer }) => {
  ({ direct, throughNext } = await startPair(startFileServer, databases, SERVER_ENV));
  // The same plants on both, created through both paths: ids 1 to 30, odd ones tagged.
  for (let id = 1; id <= SEED_PLANTS; id++) {
    const steps = stepsOf(one('seed', { method: 'POST', target: '/plants', body: json({ id, name: seedName(id), ...(seedTag(id) ? { tag: seedTag(id) } : {}) }) }));
    const { viaNext, viaDirect } = await differential(steps);
    expect([viaNext.responses[0]?.status, viaDirect.responses[0]?.status]).toEqual([200, 200]);
  }
}, 120_000);

describe('the direct path answers as Next does', () => {
  it('has a corpus of at least 150 hand-written requests', () => {
    const names = CORPUS.map((testCase) => testCase.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
  });

  // In order: the cases share the servers' state, which stays the same on both.
  it.each(CORPUS)('$name', async (testCase) => {
    const steps = stepsOf(testCase);
    const { viaNext, viaDirect, comparison, faults } = await differential(steps, testCase);
    expect([...comparison.differences, ...faults], report(comparison, viaNext, viaDirect, steps)).toEqual([]);
    // Something came back, unless the case is about waiting.
    if (!testCase.timeoutMs) expect(viaNext.responses.length + viaDirect.responses.length, report(comparison, viaNext, viaDirect, steps)).toBeGreaterThan(0);
  });

  it('differs deliberately in Vary: Next also names its router headers', async () => {
    const { comparison, viaNext, viaDirect } = await differential(stepsOf(one('vary', { target: '/plants/2' })));
    expect(comparison.differences).toEqual([]);
    expect(comparison.deliberate).toEqual([[DELIBERATE_DIFFERENCES.vary]]);
    expect(viaDirect.responses[0].headerList.filter(([name]) => name === 'vary')).toEqual([['vary', 'Accept-Encoding']]);
    expect(viaNext.responses[0].headerList.find(([name]) => name === 'vary')?.[1]).toMatch(/\brsc\b.*Accept-Encoding/);
  });

  it('differs deliberately in gzip: only from 1 KiB on the direct path, as Next for larger answers', async () => {
    const small = await differential(stepsOf(one('small', { target: '/plants/2', headers: ['Accept-Encoding: gzip'] })));
    expect(small.comparison.differences).toEqual([]);
    expect(small.comparison.deliberate[0]).toContain(DELIBERATE_DIFFERENCES.gzipBelow1KiB);
    expect(small.viaDirect.responses[0].headerList).not.toContainEqual(['content-encoding', 'gzip']);
    expect(small.viaNext.responses[0].headerList).toContainEqual(['content-encoding', 'gzip']);

    const large = await differential(stepsOf(one('large', { target: '/plants?limit=100', headers: ['Accept-Encoding: gzip'] })));
    expect(large.comparison.differences).toEqual([]);
    expect(large.comparison.deliberate[0]).not.toContain(DELIBERATE_DIFFERENCES.gzipBelow1KiB);
    for (const exchange of [large.viaDirect, large.viaNext]) {
      expect(exchange.responses[0].headerList).toContainEqual(['content-encoding', 'gzip']);
      expect(exchange.responses[0].body.length).toBeGreaterThan(1024);
    }
  });

  it('takes no other deliberate difference: a changed answer fails the comparison', async () => {
    const { viaNext, viaDirect } = await differential(stepsOf(one('compare', { target: '/plants/2' })));
    const remaining = (exchange: RawExchange) => Number(headerValue(exchange.responses[0], 'ratelimit-remaining'));
    const drift = { remaining: remaining(viaNext) - remaining(viaDirect) };
    expect(compareExchanges(viaNext, viaDirect, { ...drift }).differences).toEqual([]);
    const tampered = { ...viaDirect, responses: [{ ...viaDirect.responses[0], headerList: [...viaDirect.responses[0].headerList, ['cache-control', 'public'] as [string, string]] }] };
    expect(compareExchanges(viaNext, tampered, { ...drift }).differences).toEqual([expect.stringMatching(/^header cache-control/)]);
  });

  it('agrees on generated requests', async () => {
    const property = fc.asyncProperty(generatedRequest(), async (generated: GeneratedRequest) => {
      const steps = generatedSteps(generated);
      const { viaNext, viaDirect, comparison, faults } = await differential(steps, { timeoutMs: 3000 });
      const problems = [...comparison.differences, ...faults];
      if (problems.length) throw new Error(`${problems.join('\n')}\n${report(comparison, viaNext, viaDirect, steps)}`);
    });
    const result = await fc.check(property, { seed: GENERATED_SEED, numRuns: GENERATED_RUNS, endOnFailure: true });
    expect(
      result.failed ? `seed ${GENERATED_SEED} (replay with DIFFERENTIAL_SEED=${GENERATED_SEED}) failed at run ${result.numRuns}: ${String(result.errorInstance ?? '')}` : 'passed',
    ).toBe('passed');
  }, 240_000);

  it('logs the same requests on both paths, by the path routed, with no faults', () => {
    const requests = (server: RunningServer) =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"request"'))
        .map((line) => {
          const { method, path, status } = JSON.parse(line) as { method: string; path: string; status: number };
          return `${method} ${path} ${status}`;
        });
    // The direct server did answer directly (or all of this compared Next with itself).
    expect(direct.output()).toMatch(/route handlers answered directly: \/plants, \/plants\/\[id\]/);
    expect(throughNext.output()).toMatch(/everything through Next \(API_DIRECT_ROUTES=off\)/);
    // Sorted: Node runs pipelined requests side by side, so they may finish in either order.
    expect(requests(direct).sort()).toEqual(requests(throughNext).sort());
    // What the router matched, never a path taken from Host or an absolute-form target.
    expect(requests(direct)).toContain('DELETE /plants/28 204');
    expect(requests(direct).filter((request) => request.startsWith('DELETE /api/health'))).toEqual([]);
    for (const server of [direct, throughNext]) {
      expect(server.output()).not.toMatch(/evil\.example/);
      expect(server.output().split('\n').filter((line) => /"level":"error"|^\s+at /.test(line))).toEqual([]);
    }
  });
});

describe('the limits answer as Next does', () => {
  let pair: Pair;

  test.beforeAll(async ({ databases, startFileServer }) => {
    // Both databases are the pair's above (a token of its own keeps the counts apart); these
    // servers only read.
    pair = await startPair(startFileServer, databases, { ...SERVER_ENV, RATE_LIMIT_PER_MINUTE: '3', AUTH_FAILURES_PER_MINUTE: '2', PASSWORD_ATTEMPTS_PER_MINUTE: '2' });
  }, 60_000);

  it.each([
    ['within the rate limit, then over it', Array.from({ length: 5 }, () => ({ target: '/plants/1', auth: 'limited' as const }))],
    ['failed authentications, then over their limit', Array.from({ length: 4 }, () => ({ target: '/plants/1', auth: { raw: 'Bearer pst_unknown' } }))],
  ])('%s', async (_name, specs) => {
    for (const spec of specs) {
      const steps = stepsOf(one('limit', spec));
      const { viaNext, viaDirect, comparison, faults } = await differential(steps, {}, pair);
      expect([...comparison.differences, ...faults], report(comparison, viaNext, viaDirect, steps)).toEqual([]);
    }
    const last = await differential(stepsOf(one('limit', specs[0])), {}, pair);
    expect(last.viaDirect.responses[0].status).toBe(429);
    expect(last.comparison.viaDirect[0].headers['retry-after']).toMatch(/^\d+$/);
  });

  it("password attempts, then past the address's allowance: the door refuses each spelling as the route does", async () => {
    // Both servers share the test secret, so one CSRF pair serves both.
    const csrf = await csrfOn(pair.direct);
    const tag = Date.now();
    const signIn = (target: string, email: string, headers: string[] = []): RequestSpec => ({
      method: 'POST',
      target,
      auth: 'none',
      headers: [`Cookie: ${csrf.cookie}`, ...headers],
      contentType: 'application/x-www-form-urlencoded',
      body: new URLSearchParams({ csrfToken: csrf.token, email: `${email}-${tag}@example.com`, password: 'a made-up password', json: 'true' }).toString(),
    });
    const cases: [RequestSpec, number][] = [
      // Within the allowance of two: checked, and refused as wrong.
      [signIn('/api/auth/callback/credentials', 'first'), 401],
      [signIn('/api/auth/callback/credentials', 'second'), 401],
      // Past it: at the direct server's door, and in the route through Next.
      [signIn('/api/auth/callback/credentials', 'third'), 429],
      [signIn('/api/auth/callback/credentials', 'gzip', ['Accept-Encoding: gzip']), 429],
      [signIn('/api/auth/callback/credentials?callbackUrl=%2Ftokens', 'query'), 429],
      [signIn('/api/auth/callback/%63redentials', 'escaped'), 429],
      [signIn('/api/auth/x/../callback/./credentials', 'dotted'), 429],
      [signIn('http://evil.example/api/auth/callback/credentials', 'absolute'), 429],
      [{ ...signIn('/api/auth/callback/credentials', 'keep-alive'), headers: [`Cookie: ${csrf.cookie}`, 'Connection: keep-alive'] }, 429],
      // No endpoint: Next's router and the route on both.
      [signIn('/api/auth/callback/credentials/x', 'extra'), 404],
    ];
    // In one fresh minute of both servers' clocks: the allowance stays spent throughout.
    await startOfWindow(pair.direct.clock, pair.throughNext.clock);
    for (const [spec, status] of cases) {
      const steps = stepsOf(one('sign-in', spec));
      const { viaNext, viaDirect, comparison, faults } = await differential(steps, {}, pair);
      expect([...comparison.differences, ...faults], report(comparison, viaNext, viaDirect, steps)).toEqual([]);
      expect([viaNext.responses[0]?.status, viaDirect.responses[0]?.status], spec.target).toEqual([status, status]);
      // The direct server's refusals came from its door, not from Next's router: their Vary does not name the router's headers.
      expect(comparison.deliberate[0].includes(DELIBERATE_DIFFERENCES.vary), spec.target).toBe(status === 429);
    }
    // And pipelined behind one another on one connection, with a read after them.
    const steps = stepsOf(pipelined('sign-ins, pipelined', [signIn('/api/auth/callback/credentials', 'pipelined-1'), signIn('/api/auth/callback/credentials', 'pipelined-2'), { target: '/plants/1', auth: 'limited' }]));
    const { viaNext, viaDirect, comparison, faults } = await differential(steps, {}, pair);
    expect([...comparison.differences, ...faults], report(comparison, viaNext, viaDirect, steps)).toEqual([]);
    expect(viaDirect.responses.map((response) => response.status).slice(0, 2)).toEqual([429, 429]);
  });
});
