// Requests as a hostile client sends them, raw bytes over a socket, to the production server on the
// direct path and with API_DIRECT_ROUTES=off, on one database: what the direct path was once found
// answering wrongly (a Host with a path or a space, bodies on GET/HEAD/DELETE, a body that trickles
// or never comes, an access log that believed Host), and what Node's parser refuses. Each answer
// must be the same on both paths, never a 5xx, and leave no stack in the log.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { tokenIn } from '../support/database';
import { test } from '../support/fixtures';
import { rawExchange, rawRequest, type RawExchange, type RawOptions, type RawResponse, type RawStep } from '../support/raw-socket';
import type { RunningServer } from '../support/server';
import { createOn } from '../support/api';
import { idleHealth, scaledBound } from '../support/latency';

const BODY_TIMEOUT_MS = 1500;
let direct: RunningServer;
let throughNext: RunningServer;
let token: string;
let servers: [string, RunningServer][];

// Two servers on the file's database (the fixtures stop them and remove it when the file ends).
test.beforeAll(async ({ ownDatabase, startFileServer }) => {
  ({ token } = await tokenIn(ownDatabase.url, 'hostile'));
  const env = { BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS), AUTH_FAILURES_PER_MINUTE: 'off' };
  [direct, throughNext] = await Promise.all([
    startFileServer({ database: ownDatabase, env }),
    startFileServer({ database: ownDatabase, env: { ...env, API_DIRECT_ROUTES: 'off' } }),
  ]);
  servers = [
    ['direct', direct],
    ['next', throughNext],
  ];
  for (let id = 1; id <= 6; id++) expect((await createOn(direct, token, `{"id": ${id}, "name": "Hostile ${id}"}`)).status).toBe(200);
}, 60_000);

const auth = () => ({ Authorization: `Bearer ${token}` });

/** What must match between the paths: status, Error code, body and the headers a client reads. */
function comparable(response: RawResponse) {
  const { headers } = response;
  const kept = ['content-type', 'allow', 'www-authenticate', 'link', 'next-cursor', 'etag', 'cache-control', 'x-content-type-options'];
  return {
    status: response.status,
    error: response.json?.error,
    body: response.text.replace(/"requestId":"[^"]*"/g, ''),
    headers: Object.fromEntries(kept.map((name) => [name, headers[name]])),
  };
}

/**
 * Sends the same steps to both servers; returns both exchanges. Unless told otherwise, reads on
 * until the server closes the connection, so anything it sends after the answer shows too.
 */
async function onBoth(steps: RawStep[], options: RawOptions = {}) {
  const [viaDirect, viaNext] = await Promise.all(servers.map(([, server]) => rawExchange(server.port, steps, { readUntilClose: true, timeoutMs: 3000, ...options })));
  return { viaDirect, viaNext };
}

/** One request, whose answer is waited for (to the method its request line names). */
const one = (bytes: string): RawStep[] => [{ bytes, methods: [bytes.slice(0, bytes.indexOf(' '))] }];

/** Whether the server closed (or reset) the connection, rather than the wait running out. */
const closedByServer = (exchange: RawExchange) => exchange.closedAt !== undefined;

function expectSameAndNo5xx(viaDirect: { responses: RawResponse[] }, viaNext: { responses: RawResponse[] }) {
  expect(viaDirect.responses.map(comparable)).toEqual(viaNext.responses.map(comparable));
  for (const response of [...viaDirect.responses, ...viaNext.responses]) expect(response.status).toBeLessThan(500);
}

const logOf = (server: RunningServer) => server.output();
const noStacks = () => {
  for (const [, server] of servers) {
    expect(logOf(server)).not.toMatch(/\n\s+at /);
    expect(logOf(server)).not.toMatch(/"status":5\d\d/);
  }
};

describe('hostile requests, on the direct path and through Next', () => {
  it('never take the origin from Host: a Host with a path appears nowhere', async () => {
    const { viaDirect, viaNext } = await onBoth(one(rawRequest('GET /plants?limit=1 HTTP/1.1', { Host: 'evil.example/x', ...auth(), Connection: 'close' })));
    expectSameAndNo5xx(viaDirect, viaNext);
    const [answer] = viaDirect.responses;
    expect(answer.status).toBe(200);
    expect(answer.headers.link).toMatch(/^<\/plants\?limit=1&cursor=[^>]+>; rel="next"$/);
    for (const exchange of [viaDirect, viaNext]) expect(exchange.raw).not.toMatch(/evil|\/x\//);
    for (const [, server] of servers) expect(logOf(server)).not.toMatch(/evil|"path":"\/x/);
  });

  it('answer a Host that is not a host name as Next does, never 500', async () => {
    for (const host of ['a b', '', '[::1', 'x:99999', '%']) {
      const { viaDirect, viaNext } = await onBoth(one(rawRequest('GET /plants/1 HTTP/1.1', { Host: host, ...auth(), Connection: 'close' })));
      expectSameAndNo5xx(viaDirect, viaNext);
      expect(viaDirect.responses).toHaveLength(1);
    }
  });

  it('take an absolute-form target as its path, and name its authority nowhere', async () => {
    for (const target of ['http://evil.example/plants?limit=1', 'HTTPS://evil.example:444/plants/2', 'http://evil.example:80/api/health?x']) {
      const { viaDirect, viaNext } = await onBoth(one(rawRequest(`GET ${target} HTTP/1.1`, { ...auth(), Connection: 'close' })));
      expectSameAndNo5xx(viaDirect, viaNext);
      for (const exchange of [viaDirect, viaNext]) expect(exchange.raw).not.toMatch(/evil/);
    }
    const { viaDirect } = await onBoth(one(rawRequest('GET http://evil.example/plants/2 HTTP/1.1', { ...auth(), Connection: 'close' })));
    expect(viaDirect.responses[0]).toMatchObject({ status: 200, json: { id: 2 } });
    for (const [, server] of servers) expect(logOf(server)).not.toMatch(/evil/);
  });

  it('answer an asterisk or a path whose escapes are not UTF-8 with 400, never 500', async () => {
    const cases: [string, number][] = [
      ['OPTIONS * HTTP/1.1', 204],
      ['GET * HTTP/1.1', 400],
      ['GET /plants/%ff HTTP/1.1', 400],
      ['POST /plants/% HTTP/1.1', 400],
      ['DELETE /plants/%C3%28 HTTP/1.1', 400],
      ['GET /% HTTP/1.1', 400],
    ];
    for (const [requestLine, status] of cases) {
      const { viaDirect, viaNext } = await onBoth(one(rawRequest(requestLine, { ...auth(), Connection: 'close' })));
      expectSameAndNo5xx(viaDirect, viaNext);
      expect(viaDirect.responses[0].status).toBe(status);
      if (status === 400) expect(viaDirect.responses[0].json?.error).toBe(40004);
    }
    noStacks();
  });

  it('log the path the router matched, not one rebuilt from Host', async () => {
    const host = `127.0.0.1:${direct.port}/api/health#`;
    const { viaDirect, viaNext } = await onBoth(one(rawRequest('DELETE /plants/4 HTTP/1.1', { Host: host, ...auth(), Connection: 'close' })));
    // One of the two deletes it; the other finds it gone.
    expect(new Set([viaDirect.responses[0].status, viaNext.responses[0].status])).toEqual(new Set([204, 404]));
    for (const [, server] of servers) {
      const line = logOf(server).split('\n').findLast((entry) => entry.includes('"method":"DELETE"'));
      expect(JSON.parse(line!)).toMatchObject({ msg: 'request', path: '/plants/4' });
    }
  });

  it('treat bodies on GET, HEAD and DELETE as Next does, and keep the connection usable', async () => {
    const then = rawRequest('GET /plants/2 HTTP/1.1', auth());
    const cases = [
      [rawRequest('GET /plants?limit=2 HTTP/1.1', { ...auth(), 'Content-Length': 5 }, 'hello'), 'GET'],
      [rawRequest('GET /plants/1 HTTP/1.1', { ...auth(), 'Transfer-Encoding': 'chunked' }, '0\r\n\r\n'), 'GET'],
      [rawRequest('GET /plants/1 HTTP/1.1', { ...auth(), 'Transfer-Encoding': 'chunked' }, '5\r\nhello\r\n0\r\n\r\n'), 'GET'],
      [rawRequest('DELETE /plants/99 HTTP/1.1', { ...auth(), 'Content-Length': 5 }, 'hello'), 'DELETE'],
      [rawRequest('DELETE /plants/99 HTTP/1.1', { ...auth(), 'Transfer-Encoding': 'chunked' }, '0\r\n\r\n'), 'DELETE'],
    ] as const;
    for (const [request, method] of cases) {
      const { viaDirect, viaNext } = await onBoth([{ bytes: request + then, methods: [method, 'GET'] }], { readUntilClose: false });
      expectSameAndNo5xx(viaDirect, viaNext);
      expect(viaDirect.responses).toHaveLength(2);
      expect(viaDirect.responses[1].status).toBe(200);
    }
    // HEAD: Next derives it on both servers; the body is dropped all the same.
    const head = rawRequest('HEAD /plants/2 HTTP/1.1', { ...auth(), 'Content-Length': 5 }, 'hello');
    const { viaDirect, viaNext } = await onBoth([{ bytes: head, methods: ['HEAD'] }], { readUntilClose: false });
    expectSameAndNo5xx(viaDirect, viaNext);
    expect(viaDirect.responses[0].status).toBe(200);
  });

  it('refuse a body by its declared size without reading it, and answer the next request on the connection', async () => {
    const body = 'x'.repeat(300_000);
    const oversized = rawRequest('POST /plants HTTP/1.1', { ...auth(), 'Content-Type': 'application/json', 'Content-Length': body.length }, body);
    const { viaDirect, viaNext } = await onBoth([{ bytes: oversized + rawRequest('GET /plants/2 HTTP/1.1', auth()), methods: ['POST', 'GET'] }], { readUntilClose: false });
    expectSameAndNo5xx(viaDirect, viaNext);
    expect(viaDirect.responses.map((response) => response.status)).toEqual([413, 200]);
  });

  it("answer what Node's parser refuses, or an unknown expectation, with an Error body, the same on both paths", async () => {
    const cases: [string, number, number][] = [
      ['GET /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 400, 40004],
      [rawRequest('POST /plants HTTP/1.1', { ...auth(), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, 'zz\r\n{}\r\n0\r\n\r\n'), 400, 40004],
      ['GET /plants HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n', 400, 40004],
      ['GET /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 400, 40004],
      ['GET\x01/plants HTTP/1.1\r\nHost: x\r\n\r\n', 400, 40004],
      [rawRequest('GET /plants HTTP/1.1', { ...auth(), 'X-Big': 'a'.repeat(20_000) }), 431, 43101],
      // Not the parser's, but Node's too: an expectation other than 100-continue.
      [rawRequest('POST /plants HTTP/1.1', { ...auth(), 'Content-Type': 'application/json', Expect: 'teapot', 'Content-Length': 2 }, '{}'), 417, 41701],
    ];
    for (const [request, status, code] of cases) {
      const { viaDirect, viaNext } = await onBoth(one(request));
      expectSameAndNo5xx(viaDirect, viaNext);
      expect(viaDirect.raw).toBe(viaNext.raw);
      expect(viaDirect.responses).toHaveLength(1);
      expect(viaDirect.responses[0]).toMatchObject({ status, json: { error: code } });
      expect(viaDirect.responses[0].headers['content-type']).toBe('application/json; charset=utf-8');
      expect(closedByServer(viaDirect)).toBe(true);
    }
    noStacks();
  });

  it('answer an unauthenticated POST at once, without waiting for the body it declared', async () => {
    const head = rawRequest('POST /plants HTTP/1.1', { 'Content-Type': 'application/json', 'Content-Length': 200_000 }, '{"id":');
    const trickle = Array.from({ length: 8 }, (): RawStep => ({ pauseMs: 200, bytes: '1', methods: [] }));
    // The bounds as stated, or as many times more as health is slower idle here (test/support/latency.ts).
    const idle = Math.max(...(await Promise.all(servers.map(([, server]) => idleHealth(server.url)))));
    const { viaDirect, viaNext } = await onBoth([{ bytes: head, methods: [] }, ...trickle], { timeoutMs: BODY_TIMEOUT_MS + scaledBound(2500, idle) });
    for (const exchange of [viaDirect, viaNext]) {
      expect(exchange.responses[0]).toMatchObject({ status: 401, json: { error: 40101 } });
      expect(exchange.responses[0].at).toBeLessThan(scaledBound(1000, idle));
      // The rest of the body is never waited for beyond the body timeout: 408, and the connection closes.
      expect(exchange.responses[1]).toMatchObject({ status: 408, json: { error: 40801 } });
      expect(closedByServer(exchange)).toBe(true);
      expect(exchange.closedAt!).toBeLessThan(BODY_TIMEOUT_MS + scaledBound(2000, idle));
    }
    expectSameAndNo5xx(viaDirect, viaNext);
  });

  it('close after refusing a body mid-upload without resetting what the client still sends (lingering close)', async () => {
    // A chunked body past the limit, on a connection the client asked to close: the handler stops
    // reading and answers 413 while the client is still sending. Closed at once, the server's TCP
    // stack answers the bytes still coming with a reset, and the client's next write fails before
    // it has read the 413 (this client reads only after 300 ms of sending, as a busy one might). The
    // server lingers instead (server/linger.ts): no reset while the client sends, then the close.
    // A socket of its own, not rawExchange: this client must not read while it writes
    // (socket.pause), where the exchange reads every answer as it comes.
    const chunk = `4000\r\n${'x'.repeat(0x4000)}\r\n`;
    const paceWrites = () => new Promise((resolve) => setTimeout(resolve, 2));
    for (const [name, server] of servers) {
      const idle = await idleHealth(server.url);
      const socket = net.connect(server.port, '127.0.0.1');
      let reply = '';
      let failure: Error | undefined;
      socket.pause();
      socket.on('data', (data) => (reply += data.toString('latin1')));
      socket.on('error', (error) => (failure ??= error));
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(rawRequest('POST /plants HTTP/1.1', { ...auth(), 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', Connection: 'close' }));
      const started = Date.now();
      while (Date.now() - started < 300 && !failure) {
        socket.write(chunk);
        await paceWrites();
      }
      expect(failure?.message, name).toBeUndefined();
      socket.resume();
      await closed;
      expect(reply, name).toMatch(/^HTTP\/1\.1 413 /);
      expect(Date.now() - started, name).toBeLessThan(scaledBound(3000, idle));
    }
  });

  it('answer 408 to a body that does not arrive in time', async () => {
    const head = rawRequest('POST /plants HTTP/1.1', { ...auth(), 'Content-Type': 'application/json', 'Content-Length': 100 }, '{"id": 7');
    // A body that stops short and a head that never ends, on sockets of their own, at once: each waits out the timeout.
    const [{ viaDirect, viaNext }, { viaDirect: slowHead }] = await Promise.all([
      onBoth([{ bytes: head, methods: ['POST'] }], { timeoutMs: BODY_TIMEOUT_MS + 2500 }),
      onBoth([{ bytes: 'GET /plants HTTP/1.1\r\nHost: x\r\n', methods: ['GET'] }], { timeoutMs: BODY_TIMEOUT_MS + 2500 }),
    ]);
    expectSameAndNo5xx(viaDirect, viaNext);
    for (const exchange of [viaDirect, viaNext]) {
      expect(exchange.responses).toHaveLength(1);
      expect(exchange.responses[0]).toMatchObject({ status: 408, json: { error: 40801 } });
      expect(closedByServer(exchange)).toBe(true);
    }
    expect(slowHead.responses[0]).toMatchObject({ status: 408, json: { error: 40801 } });
  });

  it('take a client that goes away mid-body as no fault: no stack, no 5xx', async () => {
    const head = rawRequest('POST /plants HTTP/1.1', { ...auth(), 'Content-Type': 'application/json', 'Content-Length': 2000 }, '{"id": 8, ');
    await onBoth([{ bytes: head, methods: [] }], { destroyAfterMs: 300, timeoutMs: 500 });
    for (const [, server] of servers) await expect.poll(() => logOf(server)).toMatch(/"method":"POST","path":"\/plants","status":408/);
    noStacks();
    for (const [, server] of servers) {
      expect(logOf(server)).not.toMatch(/"level":"error"/);
      expect(logOf(server)).toMatch(/"method":"POST","path":"\/plants","status":408/);
    }
  });

  it("answer 400 40006 to a page request whose Next protocol Next cannot read, where Next answered 500", async () => {
    // A Server Action the build has, so Next gets as far as reading its arguments.
    const manifest = JSON.parse(readFileSync('.next/server/server-reference-manifest.json', 'utf8')) as { node: Record<string, unknown> };
    const actionId = Object.keys(manifest.node)[0];
    const form = (body: string, headers: Record<string, string> = {}) =>
      rawRequest('POST /login HTTP/1.1', { 'Content-Type': 'multipart/form-data; boundary=xyz', 'Content-Length': Buffer.byteLength(body), Connection: 'close', ...headers }, body);
    const unreadable = [
      rawRequest('GET /login HTTP/1.1', { RSC: 1, 'Next-Router-State-Tree': '{{{', Connection: 'close' }),
      rawRequest('GET /login HTTP/1.1', { RSC: 1, 'Next-Router-State-Tree': '%7B%7D', Connection: 'close' }),
      rawRequest('GET /no-such-page HTTP/1.1', { RSC: 1, 'Next-Router-State-Tree': '[[[', Connection: 'close' }),
      form('0123456789'),
      form('0123456789', { 'Content-Type': 'multipart/form-data' }),
      form(`--xyz\r\nContent-Disposition: form-data; name="$ACTION_ID_${actionId}"\r\n\r\n\r\n--xyz`),
      form('0123456789', { 'Next-Action': actionId }),
      form('[garbage', { 'Next-Action': actionId, 'Content-Type': 'text/plain;charset=UTF-8' }),
      // Forms that name no action, or name one in a shape no action has: Next 16.4 answers 400 in
      // text, Next 16.3 500.
      form('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n'),
      form('--xyz\r\nContent-Disposition: form-data; name="$ACTION_ID_123"\r\n\r\n\r\n--xyz--\r\n'),
      form('--xyz\r\nContent-Disposition: form-data; name="$ACTION_REF_1"\r\n\r\n\r\n--xyz--\r\n'),
    ];
    for (const request of unreadable) {
      const { viaDirect, viaNext } = await onBoth(one(request));
      expectSameAndNo5xx(viaDirect, viaNext);
      expect(viaDirect.responses[0], request).toMatchObject({ status: 400, json: { error: 40006 } });
    }
    noStacks();
    const { viaDirect: noAction } = await onBoth(one(form('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--\r\n')));
    expect(noAction.responses[0].json).toMatchObject({ error: 40006, message: expect.stringMatching(/names no Server Action/) });
    // What Next can read goes on to Next: an RSC request without router state gets the page's own
    // answer (a redirect, in a store with no staff yet).
    const { viaDirect: page } = await onBoth(one(rawRequest('GET /login HTTP/1.1', { RSC: 1, Connection: 'close' })));
    expect(page.responses[0].status).toBeLessThan(400);
  });

  it('still answer well-formed requests after all that', async () => {
    const { viaDirect, viaNext } = await onBoth(one(rawRequest('GET /plants/3 HTTP/1.1', { ...auth(), Connection: 'close' })));
    expectSameAndNo5xx(viaDirect, viaNext);
    expect(viaDirect.responses[0]).toMatchObject({ status: 200, json: { id: 3, name: 'Hostile 3' } });
  });
});
