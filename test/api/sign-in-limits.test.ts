// The sign-in surface under abuse, on a production server of its own (so its log and its
// throttle rows are this file's alone): parallel guesses against the throttle, oversized input,
// every spelling of the sign-in's path once an address has spent its allowance, and the log lines
// sign-in writes. Password checks are counted from those log lines: each check writes "sign-in
// failed" or "sign-in succeeded". The throttle's store (its claims, expired rows
// purged) is held to its contract in test/db/contract/auth-stores.test.ts.
import { describe, expect } from 'vitest';
import { expectError, request } from '../support/api';
import { withClocksStopped } from '../support/clock';
import { tokenIn, type TestDatabase } from '../support/database';
import { withServerEnv } from '../support/fixtures';
import { idleHealth, scaledBound } from '../support/latency';
import type { RunningServer } from '../support/server';
import { headerValue, rawAnswer, rawExchange, requestBytes, type RawResponse } from '../support/raw-socket';
import { csrfOn, logLinesIn, passwordChecksIn, postAuth, refusedAttemptsOn, refusalOf, signInOn, throttledBurst, userIn } from '../support/sign-in';

const PASSWORD = 'a long limits passphrase';

// The per-address allowance of password attempts is off here: this file's bursts come from one
// address and are about the per-email throttle; the allowance has its own (abuse-bursts.test.ts).
const test = withServerEnv({ PASSWORD_ATTEMPTS_PER_MINUTE: 'off' });

const logLines = (server: RunningServer, messages: string[], email?: string) => logLinesIn(server.output(), messages, email);
const passwordChecks = (server: RunningServer, email: string) => passwordChecksIn(server.output(), email);

async function throttleRow(database: TestDatabase, email: string) {
  const rows = await database.execute(`SELECT "attempts", "lastAttemptAt" FROM "LoginThrottle" WHERE "key" = '${email}'`);
  return rows[0] as { attempts: number | bigint; lastAttemptAt: bigint } | undefined;
}

describe('the throttle, under a burst of parallel attempts', () => {
  test('runs at most 5 password checks out of 100, and refuses the correct password while throttled', async ({ ownServer: server, ownDatabase: database }) => {
    const email = `burst-${Date.now()}@example.com`;
    await userIn(database.url, email, PASSWORD);
    const csrf = await csrfOn(server);
    const attempt = (password: string) => postAuth(server, 'callback/credentials', { email, password }, { csrf });

    const { correct, answers } = await throttledBurst([server], email, PASSWORD, (_, password) => attempt(password));

    expect(answers).toHaveLength(100);
    expect(passwordChecks(server, email)).toBeLessThanOrEqual(5);
    expect(logLines(server, ['sign-in succeeded'], email)).toEqual([]);
    expect(refusalOf(correct)).toMatch(/^TooManyAttempts:\d+$/);
    for (const answer of answers) expect(answer.status).toBe(401);
    const throttled = answers.filter((answer) => refusalOf(answer)?.startsWith('TooManyAttempts:'));
    expect(throttled.length).toBeGreaterThanOrEqual(95);
    expect(Number((await throttleRow(database, email))!.attempts)).toBeLessThanOrEqual(5);

    // Once the wait is over (moved back in the database rather than waited for), another burst
    // of 60 gets exactly one more check: the claim stays atomic after the wait too.
    const checksBefore = passwordChecks(server, email);
    await database.execute(`UPDATE "LoginThrottle" SET "lastAttemptAt" = "lastAttemptAt" - 6000 WHERE "key" = '${email}'`);
    await Promise.all(Array.from({ length: 60 }, (_, index) => attempt(`later guess ${index}`)));
    expect(passwordChecks(server, email) - checksBefore).toBe(1);

    // A success clears the count.
    await database.execute(`UPDATE "LoginThrottle" SET "lastAttemptAt" = "lastAttemptAt" - 20000 WHERE "key" = '${email}'`);
    const signedIn = await signInOn(server, email, PASSWORD);
    expect(signedIn.session).not.toBeNull();
    expect(await throttleRow(database, email)).toBeUndefined();
  });
});

describe('sign-in input is limited before any work', () => {
  test('an email over 254 characters or a password over 1,024 is refused without a check or a throttle row', async ({ ownServer: server, ownDatabase: database }) => {
    const email = `capped-${Date.now()}@example.com`;
    await userIn(database.url, email, PASSWORD);
    const longEmail = `${'x'.repeat(250)}@example.com`;
    const tooLongEmail = await signInOn(server, longEmail, PASSWORD);
    const tooLongPassword = await signInOn(server, email, 'p'.repeat(1025));
    for (const answer of [tooLongEmail, tooLongPassword]) {
      expect(answer.status).toBe(401);
      expect(refusalOf(answer)).toBe('CredentialsSignin');
    }
    expect(passwordChecks(server, email) + passwordChecks(server, longEmail)).toBe(0);
    expect(await throttleRow(database, email)).toBeUndefined();
    expect(await throttleRow(database, longEmail)).toBeUndefined();
    expect(logLines(server, ['sign-in refused']).filter((line) => line.reason === 'input too long').length).toBeGreaterThanOrEqual(2);
    // At the limits, the account works.
    expect((await signInOn(server, email, PASSWORD)).session).not.toBeNull();
  });

  test('a body over 8 KiB is refused with 413 before it is read', async ({ ownServer: server }) => {
    const csrf = await csrfOn(server);
    const response = await request(server, '/api/auth/callback/credentials', {
      method: 'POST',
      headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrfToken: csrf.token, email: 'a@example.com', password: 'x'.repeat(9000), json: 'true' }),
    });
    expectError(response, 413, 41301, 'Request body must be at most 8192 bytes');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  test.for([
    ['with Content-Length', false],
    ['chunked', true],
  ] as const)('a 50 MB sign-in body %s is refused within a second, while /api/health keeps answering', async ([, chunked], { ownServer: server }) => {
    const size = 50 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 'a');
    let stop = false;
    const stream = (socket: import('node:net').Socket) => {
      let sent = 0;
      const pump = () => {
        while (!stop && sent < size && !socket.destroyed) {
          const frame = chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece;
          sent += piece.length;
          if (!socket.write(frame)) return void socket.once('drain', pump);
        }
      };
      socket.on('error', () => {});
      pump();
    };
    // The bounds as stated, or as many times more as health is slower idle here (test/support/latency.ts).
    const idle = await idleHealth(server.url);
    const health: number[] = [];
    const probe = setInterval(async () => {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/health`).catch(() => null);
      if (response?.ok) health.push(performance.now() - started);
    }, 50);
    try {
      const head = [
        'POST /api/auth/callback/credentials HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/x-www-form-urlencoded',
        chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`,
      ];
      const exchange = await rawExchange(server.port, [
        { bytes: requestBytes(head), methods: [] },
        { bytes: stream, methods: ['POST'] },
      ]);
      const [answer] = exchange.responses;
      expect(answer?.status, exchange.ending).toBe(413);
      expect(answer.at).toBeLessThan(scaledBound(1000, idle));
      expect(JSON.parse(answer.text)).toMatchObject({ error: 41301 });
      // Health keeps answering after the refusal too: a probe sent after it has come back.
      const probesBefore = health.length;
      await expect.poll(() => health.length, { timeout: 5000 }).toBeGreaterThan(probesBefore);
    } finally {
      stop = true;
      clearInterval(probe);
    }
    expect(health.length).toBeGreaterThan(0);
    expect(Math.max(...health)).toBeLessThan(scaledBound(1000, idle));
  });
});

// The spellings of the sign-in's path a client might try to slip past the allowance, as sent
// on the wire, and the status each finally gets (after following one redirect: Next's router sends
// a trailing slash, `//` and a backslash to the path without them, 308). next-auth reads only the
// first two segments, so an extra one checked a password as the real path does; Next's router
// resolves dot segments, and decodes escapes in each segment.
const SPELLINGS: [target: string, status: number][] = [
  ['/api/auth/callback/credentials', 429],
  // Extra segments.
  ['/api/auth/callback/credentials/x', 404],
  ['/api/auth/callback/credentials/x/y', 404],
  ['/api/auth/callback/credentials/credentials', 404],
  ['/api/auth/callback/credentials/callback/credentials', 404],
  // Trailing slashes.
  ['/api/auth/callback/credentials/', 429],
  ['/api/auth/callback/credentials/x/', 404],
  // Doubled slashes, and backslashes.
  ['/api/auth//callback/credentials', 429],
  ['/api/auth/callback//credentials', 429],
  ['//api/auth/callback/credentials', 429],
  ['/api/auth/callback/credentials//x', 404],
  ['/api/auth/callback\\credentials', 429],
  ['/api/auth/callback/credentials\\x', 404],
  // Dot segments, plain and escaped.
  ['/api/auth/./callback/credentials', 429],
  ['/api/auth/callback/./credentials', 429],
  ['/api/auth/x/../callback/credentials', 429],
  ['/api/x/../auth/callback/credentials', 429],
  ['/api/auth/callback/credentials/.', 429],
  ['/api/auth/callback/credentials/x/..', 429],
  ['/api/auth/callback/credentials/..', 404],
  ['/api/auth/callback/%2e/credentials', 429],
  ['/api/auth/callback/credentials/%2E%2E/credentials', 429],
  ['/api/auth/callback/credentials/%2e%2e/credentials/x', 404],
  // Escapes: a slash inside a segment, letters, a backslash, a NUL, a space.
  ['/api/auth/callback%2Fcredentials', 404],
  ['/api/auth/callback%2fcredentials', 404],
  ['/api/auth/callback/credentials%2Fx', 404],
  ['/api/auth/callback/credentials%2F', 404],
  ['/api/auth/callback/cr%65dentials', 429],
  ['/api/auth/%63allback/%63redentials', 429],
  ['/api/%61uth/callback/credentials', 404],
  ['/api/auth/callback/credentials%5Cx', 404],
  ['/api/auth/callback/credentials%00', 404],
  ['/api/auth/callback/credentials%20', 404],
  // Case.
  ['/api/auth/Callback/credentials', 404],
  ['/api/auth/callback/Credentials', 404],
  ['/api/auth/CALLBACK/CREDENTIALS', 404],
  ['/api/AUTH/callback/credentials', 404],
  ['/API/auth/callback/credentials', 404],
  // Parameters, a fragment, and an absolute-form target.
  ['/api/auth/callback/credentials?x=1', 429],
  ['/api/auth/callback/credentials?nextauth=signout', 429],
  ['/api/auth/callback?nextauth=credentials', 404],
  ['/api/auth/callback/credentials;x', 404],
  ['/api/auth/callback/credentials;jsessionid=1/x', 404],
  ['/api/auth/callback/credentials#x', 429],
  ['http://127.0.0.1/api/auth/callback/credentials/x', 404],
  ['http://evil.example/api/auth/callback/credentials', 429],
  // next-auth's other actions that take a provider.
  ['/api/auth/signin/credentials', 404],
  ['/api/auth/callback', 404],
];

// Each address's allowance on the servers of the next test: spent quickly.
const ALLOWANCE = 3;

describe('every spelling of the sign-in path, once the address has spent its allowance', () => {
  test.for([
    ["at the production server's door", {}],
    ['in the route alone (API_DIRECT_ROUTES=off: as on Vercel)', { API_DIRECT_ROUTES: 'off' }],
  ] as const)('is refused, %s, or is no endpoint at all: none checks a password', async ([, env], { ownDatabase, startOwnServer }) => {
    const server = await startOwnServer({ database: ownDatabase, env: { PASSWORD_ATTEMPTS_PER_MINUTE: String(ALLOWANCE), ...env } });
    const scraper = (await tokenIn(ownDatabase.url, 'refusals', ['metrics:read'])).token;
    const csrf = await csrfOn(server);
    const tag = Date.now();
    const attempt = (target: string, email: string) => {
      const body = new URLSearchParams({ csrfToken: csrf.token, email, password: 'a made-up password', json: 'true' }).toString();
      const head = [`POST ${target} HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Cookie: ${csrf.cookie}`, 'Content-Type: application/x-www-form-urlencoded', `Content-Length: ${body.length}`, 'Connection: close'];
      return rawAnswer(server.port, requestBytes(head, body), { method: 'POST' });
    };
    // The server's clock stands still: the allowance, once spent, stays spent.
    await withClocksStopped([server.clock], async () => {
      for (let index = 0; index < ALLOWANCE; index++) expect((await attempt('/api/auth/callback/credentials', `spend-${index}-${tag}@example.com`)).status).toBe(401);
      const before = await refusedAttemptsOn(server, scraper);
      const checked: string[] = [];
      const statuses: string[] = [];
      let refused = 0;
      for (const [index, [target, expected]] of SPELLINGS.entries()) {
        const email = `spelled-${index}-${tag}@example.com`;
        let answer: RawResponse = await attempt(target, email);
        const redirect = answer.status === 308 ? headerValue(answer, 'location') : null;
        if (redirect) answer = await attempt(redirect, email);
        // No password was checked, nor anything else done with the email: the server never wrote it.
        if (server.output().includes(email)) checked.push(`${target}: ${answer.status}`);
        statuses.push(`${target}: ${answer.status}${answer.status === expected ? '' : ` (${answer.text.slice(0, 100)})`}`);
        if (answer.status === 429) {
          refused++;
          expect(answer.json, target).toMatchObject({ error: 42903 });
          expect(Number(headerValue(answer, 'retry-after')), target).toBeGreaterThan(0);
          expect(headerValue(answer, 'cache-control'), target).toBe('no-store');
        }
        // A path this app's route sees and next-auth has no endpoint at is the Error body's 404;
        // one Next's router does not give the route at all is Next's own 404 page.
        if (answer.status === 404 && answer.json) expect(answer.json, target).toMatchObject({ error: 40405 });
      }
      expect(checked, 'spellings that checked a password').toEqual([]);
      expect(statuses).toEqual(SPELLINGS.map(([target, expected]) => `${target}: ${expected}`));
      const after = await refusedAttemptsOn(server, scraper);
      // Every refusal of a spelled sign-in was counted where it was made: at the door, before
      // Next's router, when the production server has its direct path; else in the route.
      const atTheDoor = !('API_DIRECT_ROUTES' in env);
      expect({ door: after.door - before.door, handler: after.handler - before.handler }).toEqual(atTheDoor ? { door: refused, handler: 0 } : { door: 0, handler: refused });
    });
    // The spelling that checked a password before: within a fresh allowance, it is still no endpoint.
    await server.clock.advance(60_000);
    const email = `fresh-${tag}@example.com`;
    expect((await attempt('/api/auth/callback/credentials/x', email)).status).toBe(404);
    expect(server.output()).not.toContain(email);
  });
});

describe('sign-in log lines', () => {
  test('record successes, failures and throttle trips with the email and address, never the password', async ({ ownServer: server, ownDatabase: database }) => {
    const email = `logged-${Date.now()}@example.com`;
    await userIn(database.url, email, PASSWORD);
    for (let attempt = 0; attempt < 6; attempt++) await signInOn(server, email, `wrong password ${attempt}`);
    await database.execute(`DELETE FROM "LoginThrottle" WHERE "key" = '${email}'`);
    await signInOn(server, email, PASSWORD);

    const lines = logLines(server, ['sign-in failed', 'sign-in throttled', 'sign-in succeeded'], email);
    expect(lines.map((line) => line.msg)).toEqual([...Array(5).fill('sign-in failed'), 'sign-in throttled', 'sign-in succeeded']);
    for (const line of lines) expect(line.address).toBe('127.0.0.1');
    expect(lines[5].retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(lines[6].userId).toMatch(/^usr_/);
    expect(server.output()).not.toContain(PASSWORD);
    expect(server.output()).not.toContain('wrong password');
  });
});
