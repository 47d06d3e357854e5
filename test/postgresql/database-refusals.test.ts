// A PostgreSQL that refuses connections, or loses them, is answered 503 (50301) with Retry-After on
// every operation, on the direct path and through Next's router alike, never 500 (nor is the sign-in
// page); and the server recovers by itself once the database accepts again. The servers reach PostgreSQL through a TCP
// proxy of the file's own (test/support/tcp-proxy.ts), as a role of the file's own that is not a
// superuser (whom PostgreSQL lets past a database's connection limit). What cannot be made happen
// here without stopping the shared server is left out: a crash (57P02) and a server starting up
// (57P03), which lib/db/unavailable.ts maps all the same.
import { chromium } from '@playwright/test';
import pg from 'pg';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium';
import { describe, expect } from 'vitest';
import { postgresqlServerUrl } from '../../lib/db/engine';
import { expectError, request, uniqueId, type ApiResponse } from '../support/api';
import { newAccount, signIn } from '../support/accounts';
import { executeOn, tokenIn, usingDatabase } from '../support/database';
import { test as base } from '../support/fixtures';
import { startServer, type RunningServer } from '../support/server';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';

const admin = (sql: string) => executeOn('postgresql', postgresqlServerUrl(), sql);

type Servers = { direct: RunningServer; throughNext: RunningServer; token: string; role: string; name: string; proxy: TcpProxy; databaseUrl: string };

const test = base.extend('servers', { scope: 'file' }, async ({ ownDatabase }, { onCleanup }): Promise<Servers> => {
  const name = new URL(ownDatabase.url).pathname.slice(1);
  const role = `${name}_server`;
  await admin(`CREATE ROLE "${role}" LOGIN`);
  await ownDatabase.execute(`GRANT USAGE ON SCHEMA public TO "${role}";
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO "${role}";
    GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO "${role}"`);
  const { hostname, port } = new URL(postgresqlServerUrl());
  const proxy = await startTcpProxy({ host: hostname, port: Number(port || 5432) });
  const url = new URL(proxy.urlFor(ownDatabase.url));
  url.username = role;
  url.password = '';
  const started: RunningServer[] = [];
  // Connections enough for every operation at once, and the servers' own work, to hold one each.
  const env = { DATABASE_POOL_SIZE: '30' };
  onCleanup(async () => {
    await Promise.all(started.map((server) => server.stop('SIGKILL')));
    await proxy.close();
    // Its grants go with it; the database itself is removed after.
    await ownDatabase.execute(`DROP OWNED BY "${role}"`);
    await admin(`DROP ROLE IF EXISTS "${role}"`);
  });
  const [direct, throughNext] = await Promise.all([
    startServer({ databaseUrl: url.toString(), env }),
    startServer({ databaseUrl: url.toString(), env: { ...env, API_DIRECT_ROUTES: 'off' } }),
  ]);
  started.push(direct, throughNext);
  const { token } = await tokenIn(ownDatabase.url, 'refusals');
  return { direct, throughNext, token, role, name, proxy, databaseUrl: ownDatabase.url };
});

type Operation = { name: string; send(server: RunningServer, token: string, id: bigint): Promise<ApiResponse> };

const json = (token: string, method: string, body: string, type = 'application/json') => ({
  method,
  headers: { authorization: `Bearer ${token}`, 'content-type': type },
  body,
});
const get = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

// Every operation of the API that reaches the plants, each on the plant `id` where it takes one.
const OPERATIONS: Operation[] = [
  { name: 'POST /plants', send: (server, token) => request(server, '/plants', json(token, 'POST', `{"id": ${uniqueId()}, "name": "Outage"}`)) },
  { name: 'GET /plants/{id}', send: (server, token, id) => request(server, `/plants/${id}`, get(token)) },
  {
    name: 'POST /plants/batch',
    send: (server, token) => request(server, '/plants/batch', json(token, 'POST', `[{"id": ${uniqueId()}, "name": "Outage"}, {"id": ${uniqueId()}, "name": "Outage"}]`)),
  },
  { name: 'PATCH /plants/{id}', send: (server, token, id) => request(server, `/plants/${id}`, json(token, 'PATCH', '{"tag": "patched"}', 'application/merge-patch+json')) },
  { name: 'DELETE /plants/{id}', send: (server, token, id) => request(server, `/plants/${id}`, { method: 'DELETE', ...get(token) }) },
  { name: 'GET /plants', send: (server, token) => request(server, '/plants?q=outage&count=true', get(token)) },
  { name: 'GET /plants/export', send: (server, token) => request(server, '/plants/export', get(token)) },
  { name: 'GET /stats', send: (server, token) => request(server, '/stats', get(token)) },
];

/** A plant on each server's behalf, made while the database answers, for the operations that take one. */
async function plantFor(server: RunningServer, token: string): Promise<bigint> {
  const id = uniqueId();
  expect((await request(server, '/plants', json(token, 'POST', `{"id": ${id}, "name": "Outage"}`))).status).toBe(200);
  return id;
}

/** Every operation on both servers, all at once; each answer with what was sent. */
async function sendAll({ direct, throughNext, token }: Servers, ids: Map<RunningServer, bigint>, onAnswer?: () => void) {
  return Promise.all(
    [direct, throughNext].flatMap((server) =>
      OPERATIONS.map(async (operation) => {
        const response = await operation.send(server, token, ids.get(server)!);
        onAnswer?.();
        return { what: `${operation.name} (${server === direct ? 'direct' : "Next's router"})`, response };
      }),
    ),
  );
}

function expectUnavailable(answers: { what: string; response: ApiResponse }[]) {
  for (const { what, response } of answers) {
    expect(response.status, `${what}: ${response.text}`).toBe(503);
    expectError(response, 503, 50301, /retry in a moment/);
    expect(response.headers.get('retry-after'), what).toMatch(/^[1-9]\d*$/);
  }
}

/** Once the database accepts again, each server answers health and every operation as usual, by itself. */
async function expectRecovered(servers: Servers) {
  for (const server of [servers.direct, servers.throughNext]) {
    await expect.poll(async () => (await request(server, '/api/health')).status, { timeout: 15_000 }).toBe(200);
  }
  const ids = new Map([servers.direct, servers.throughNext].map((server) => [server, uniqueId()]));
  for (const [server, id] of ids) {
    expect((await request(server, '/plants', json(servers.token, 'POST', `{"id": ${id}, "name": "Outage"}`))).status).toBe(200);
  }
  for (const { what, response } of await sendAll(servers, ids)) expect(response.status, `${what}: ${response.text}`).toBeLessThan(500);
}

/** The servers said nothing outside their log lines: no connection error went unheard (Next prints an uncaught one as it is). */
function expectNoUncaughtErrors({ direct, throughNext }: Servers) {
  for (const server of [direct, throughNext]) expect(server.output()).not.toMatch(/^(Error|uncaughtException|unhandledRejection)\b/m);
}

const endSessions = ({ name, role }: Servers) =>
  admin(`SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "datname" = '${name}' AND "usename" = '${role}'`);

describe('a database that refuses new connections', () => {
  // Each: how to make the database refuse (the servers' idle connections ended too), and how to end it.
  const refusals: { name: string; refuse(servers: Servers): Promise<void>; accept(servers: Servers): Promise<void> }[] = [
    {
      name: 'not accepting connections (ALLOW_CONNECTIONS false: 55000, FATAL)',
      refuse: async (servers) => {
        await admin(`ALTER DATABASE "${servers.name}" ALLOW_CONNECTIONS false`);
        await endSessions(servers);
      },
      accept: (servers) => admin(`ALTER DATABASE "${servers.name}" ALLOW_CONNECTIONS true`).then(() => undefined),
    },
    {
      name: 'out of connections (CONNECTION LIMIT 0: 53300)',
      refuse: async (servers) => {
        await admin(`ALTER DATABASE "${servers.name}" CONNECTION LIMIT 0`);
        await endSessions(servers);
      },
      accept: (servers) => admin(`ALTER DATABASE "${servers.name}" CONNECTION LIMIT -1`).then(() => undefined),
    },
    {
      name: 'its port closed (ECONNREFUSED)',
      refuse: (servers) => servers.proxy.refuse(),
      accept: (servers) => servers.proxy.forward(),
    },
    {
      name: 'each connection reset as it is made (ECONNRESET)',
      refuse: async (servers) => servers.proxy.reset(),
      accept: (servers) => servers.proxy.forward(),
    },
    {
      name: 'each connection left unanswered (the pool gives up after 5 s)',
      refuse: async (servers) => {
        servers.proxy.hang();
        await endSessions(servers);
      },
      accept: (servers) => servers.proxy.forward(),
    },
  ];

  for (const { name, refuse, accept } of refusals) {
    test(`${name}: every operation answers 503 with Retry-After, then recovers`, async ({ servers }) => {
      const ids = new Map<RunningServer, bigint>();
      for (const server of [servers.direct, servers.throughNext]) ids.set(server, await plantFor(server, servers.token));
      await refuse(servers);
      try {
        // Past the servers' cache of verified tokens (TOKEN_CACHE_TTL_MS), so each request asks the database.
        await new Promise((resolve) => setTimeout(resolve, 600));
        const [answers, health, login] = await Promise.all([
          sendAll(servers, ids),
          Promise.all([servers.direct, servers.throughNext].map((server) => request(server, '/api/health'))),
          request(servers.direct, '/login'),
        ]);
        expectUnavailable(answers);
        for (const response of health) {
          expectError(response, 503, 50301, 'The database does not answer');
          expect(response.headers.get('retry-after')).toBe('5');
        }
        // The sign-in page shows its form.
        expect(login.status).toBe(200);
        expect(login.text).toContain('name="password"');
      } finally {
        await accept(servers);
      }
      await expectRecovered(servers);
      expectNoUncaughtErrors(servers);
    });
  }
});

/** Where a browser with the session `cookie` ends up when it opens the staff home page, and the heading it shows. */
async function staffPageSeen(server: RunningServer, cookie: string): Promise<{ path: string; heading: string | null }> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // The cookie as the signed-in browser would send it (its name may carry __Secure-, which a cookie
    // jar keeps for https origins only).
    const context = await browser.newContext({ extraHTTPHeaders: { cookie } });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    const heading = page.getByRole('heading', { level: 1 });
    await heading.waitFor();
    return { path: new URL(page.url()).pathname, heading: await heading.textContent() };
  } finally {
    await browser.close();
  }
}

describe('a staff session while the database refuses connections', () => {
  test('is not ended: the page token answers 503, the session keeps its cookie, and both work again once the database accepts', async ({ servers }) => {
    const account = await usingDatabase(servers.databaseUrl, () => newAccount('staff', 'outage'));
    const signedIn = await signIn(servers.direct.url, account);
    const cookie = signedIn.cookie();
    const pageToken = () => request(servers.direct, '/api/session-token', { method: 'POST', headers: { cookie, origin: servers.direct.url } });
    expect((await pageToken()).status).toBe(200);
    await admin(`ALTER DATABASE "${servers.name}" ALLOW_CONNECTIONS false`);
    await endSessions(servers);
    try {
      // Past the cache of account states (ACCOUNT_STATE_TTL_MS), so the session's check asks the database.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expectUnavailable([{ what: 'POST /api/session-token', response: await pageToken() }]);
      // A staff page, in a browser, says what happened, and sends nobody to sign in again.
      expect(await staffPageSeen(servers.direct, cookie)).toEqual({ path: '/', heading: 'This page could not be shown' });
      // next-auth's own read of the session: it must not clear the cookie, as it does for a session that ended.
      const session = await request(servers.direct, '/api/auth/session', { headers: { cookie } });
      expect(session.headers.getSetCookie().filter((line) => /session-token=;|Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line))).toEqual([]);
    } finally {
      await admin(`ALTER DATABASE "${servers.name}" ALLOW_CONNECTIONS true`);
    }
    await expect.poll(async () => (await pageToken()).status, { timeout: 15_000 }).toBe(200);
  });
});

describe('connections lost mid-statement', () => {
  // Each operation is held at its first statement on the plants (a lock the test takes), past
  // authentication and the rate count; then the servers' connections are cut under them.
  // Each cut also keeps new connections from being made until `after`, so that an operation still
  // on its way to its statement when the cut comes is refused, not answered by a new connection.
  const cuts: { name: string; cut(servers: Servers): Promise<void>; after(servers: Servers): Promise<void> }[] = [
    {
      name: 'every session ended by the server (pg_terminate_backend: 57P01, FATAL)',
      cut: async (servers) => {
        await admin(`ALTER DATABASE "${servers.name}" ALLOW_CONNECTIONS false`);
        await endSessions(servers);
      },
      after: (servers) => admin(`ALTER DATABASE "${servers.name}" ALLOW_CONNECTIONS true`).then(() => undefined),
    },
    { name: 'every connection reset (ECONNRESET)', cut: async (servers) => servers.proxy.reset(), after: (servers) => servers.proxy.forward() },
  ];

  for (const { name, cut, after } of cuts) {
    test(`${name}: every operation answers 503 with Retry-After, then recovers`, async ({ servers, ownDatabase }) => {
      const ids = new Map<RunningServer, bigint>();
      for (const server of [servers.direct, servers.throughNext]) ids.set(server, await plantFor(server, servers.token));
      const locker = new pg.Client({ connectionString: ownDatabase.url });
      await locker.connect();
      let answers: Awaited<ReturnType<typeof sendAll>>;
      try {
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE "Plant", "PlantDayCount", "PlantTagCount" IN ACCESS EXCLUSIVE MODE');
        let answered = 0;
        const sent = sendAll(servers, ids, () => answered++);
        // Asked on a connection of its own: inside the locker's transaction the view would not change.
        const waiting = async () =>
          Number(
            ((await admin(`SELECT count(*) AS "n" FROM pg_stat_activity WHERE "usename" = '${servers.role}' AND "wait_event_type" = 'Lock'`)) as { n: bigint }[])[0].n,
          );
        // Until each operation's statement waits (some have two, and the servers' own work may wait
        // too), or one has been answered without waiting, which fails the test below.
        await expect.poll(async () => answered > 0 || (await waiting()) >= 2 * OPERATIONS.length, { timeout: 15_000 }).toBe(true);
        await cut(servers);
        await locker.query('ROLLBACK');
        answers = await sent;
      } finally {
        await locker.end();
        await after(servers);
      }
      expectUnavailable(answers);
      await expectRecovered(servers);
      expectNoUncaughtErrors(servers);
    });
  }
});
