// Access ends the moment it is withdrawn: disabling an account, changing its role, resetting its
// password, "Sign out everywhere" and signing out end every session and page token of the
// account on the instance that made the change from the next request, and on another instance
// within a second. Two production servers share this file's own database (on SQLite, one file).
import Database from 'better-sqlite3';
import { decode, encode } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { db } from '../../lib/db/client';
import { sqliteFilePath } from '../../lib/db/url';
import { newAccount, signIn, type Browser, type TestAccount } from '../support/accounts';
import { type ApiResponse, expectError, request } from '../support/api';
import { testEngine, type TestDatabase } from '../support/database';
import { test } from '../support/fixtures';
import { TEST_AUTH_SECRET, type RunningServer } from '../support/server';
import { callAction } from '../support/server-actions';

let database: TestDatabase;
const SESSION_COOKIE = '__Secure-next-auth.session-token';
let a: RunningServer;
let b: RunningServer;
let asAdmin: Browser;

test.beforeAll(async ({ processDatabase, startFileServer }) => {
  database = processDatabase;
  [a, b] = await Promise.all([startFileServer({ database }), startFileServer({ database })]);
  asAdmin = await signIn(a.url, await newAccount('admin', 'access-admin'));
});

const bearer = (server: RunningServer, token: string) => request(server, '/plants?limit=1', { headers: { authorization: `Bearer ${token}` } });
/** What the page does with its cookie: trade it for a page token. */
const tradeCookie = (server: RunningServer, cookie: string) =>
  request(server, '/api/session-token', { method: 'POST', headers: { cookie, origin: server.url } });

type Member = { account: TestAccount; onA: Browser; cookie: string; pageToken: string; apiToken: string };

/** A staff member signed in on A, with a page token and an API token both instances have just accepted. */
async function signedInMember(label: string): Promise<Member> {
  const account = await newAccount('staff', label);
  const onA = await signIn(a.url, account);
  const cookie = onA.cookie();
  const { token: pageToken } = (await (await onA.fetch('/api/session-token', { method: 'POST' })).json()) as { token: string };
  const { token: apiToken } = await createApiToken({ name: label, createdById: account.id }, OPERATOR_COMMAND);
  for (const server of [a, b]) {
    expect((await bearer(server, pageToken)).status).toBe(200);
    expect((await bearer(server, apiToken)).status).toBe(200);
    expect((await tradeCookie(server, cookie)).status).toBe(200);
  }
  return { account, onA, cookie, pageToken, apiToken };
}

/** Paces the probes of a propagation measurement (which has its own deadline). */
const paceProbes = () => new Promise((resolve) => setTimeout(resolve, 20));

/**
 * Milliseconds from `since` (when the change was answered: it has committed) to the first attempt
 * that is refused with a 401 (checked by `check`), polling: the time it was sent, since on a busy
 * machine the answer's own latency says nothing about when the other instance saw the change.
 */
async function refusedAfter(since: number, attempt: () => Promise<ApiResponse>, check: (response: ApiResponse) => void): Promise<number> {
  for (;;) {
    const sentAt = performance.now();
    const response = await attempt();
    if (response.status === 401) {
      check(response);
      return sentAt - since;
    }
    expect(response.status).toBe(200);
    if (performance.now() - since > 5000) throw new Error('still accepted after 5 s');
    await paceProbes();
  }
}

const report = (what: string, ms: number[]) => process.stdout.write(`[${testEngine()}] ${what}: refused on the other instance after ${ms.map((t) => `${Math.round(t)} ms`).join(', ')}\n`);

describe('disabling an account', () => {
  it('ends its sessions, page tokens and API tokens at once here, within 1 s on the other instance; enabling gives back only the API tokens', async () => {
    const member = await signedInMember('disabled');
    expect((await callAction(asAdmin, '/staff', 'disableAccountAction', member.account.id)).value).toEqual({ ok: true });
    const started = performance.now();

    // The instance that made the change: the very next request.
    expectError(await bearer(a, member.pageToken), 401, 40105, /disabled/);
    expectError(await bearer(a, member.apiToken), 401, 40105, 'This account has been disabled: its tokens and sessions do not work until an admin enables it');
    expect((await tradeCookie(a, member.cookie)).status).toBe(401);
    expect((await member.onA.fetch('/tokens')).headers.get('location')).toBe('/login?callbackUrl=%2Ftokens');

    // The other instance: within a second.
    const onB = await Promise.all([
      refusedAfter(started, () => bearer(b, member.pageToken), (response) => expectError(response, 401, 40105)),
      refusedAfter(started, () => bearer(b, member.apiToken), (response) => expectError(response, 401, 40105)),
      refusedAfter(started, () => tradeCookie(b, member.cookie), () => undefined),
    ]);
    report('disable', onB);
    for (const ms of onB) expect(ms).toBeLessThan(1000);

    expect((await callAction(asAdmin, '/staff', 'enableAccountAction', member.account.id)).value).toEqual({ ok: true });
    const enabledAt = performance.now();
    expect((await bearer(a, member.apiToken)).status).toBe(200);
    for (;;) {
      const sentAt = performance.now();
      if ((await bearer(b, member.apiToken)).status === 200) break;
      expect(sentAt - enabledAt).toBeLessThan(1000);
      await paceProbes();
    }
    // Sessions stay ended: they were ended, not paused.
    expectError(await bearer(a, member.pageToken), 401, 40104, /sign in again/);
    expect((await tradeCookie(a, member.cookie)).status).toBe(401);
  });
});

describe.each([
  ['a role change', (member: Member) => callAction(asAdmin, '/staff', 'setRoleAction', member.account.id, 'admin')],
  ['a password reset', (member: Member) => callAction(asAdmin, '/staff', 'resetPasswordAction', member.account.id)],
  ['"Sign out everywhere"', (member: Member) => callAction(member.onA, '/account', 'signOutEverywhereAction')],
  [
    'signing out',
    async (member: Member) => {
      const { csrfToken } = (await (await member.onA.fetch('/api/auth/csrf')).json()) as { csrfToken: string };
      const response = await member.onA.fetch('/api/auth/signout', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrfToken, json: 'true' }),
      });
      return { status: response.status, value: await response.json() };
    },
  ],
])('%s', (what, trigger) => {
  it('ends every session and page token: here from the next request, elsewhere within 1 s', async () => {
    const member = await signedInMember(what.replace(/\W+/g, '-'));
    expect((await trigger(member)).status).toBe(200);
    const started = performance.now();

    expectError(await bearer(a, member.pageToken), 401, 40104, 'Your sign-in has ended (signed out, or the account changed): sign in again');
    // The cookie as it was before: a copy taken earlier opens no page and mints no page token.
    expect((await tradeCookie(a, member.cookie)).status).toBe(401);
    const tokensPage = await request(a, '/tokens', { headers: { cookie: member.cookie }, redirect: 'manual' });
    expect(tokensPage.status).toBe(307);

    const onB = await Promise.all([
      refusedAfter(started, () => bearer(b, member.pageToken), (response) => expectError(response, 401, 40104)),
      refusedAfter(started, () => tradeCookie(b, member.cookie), () => undefined),
    ]);
    report(what, onB);
    for (const ms of onB) expect(ms).toBeLessThan(1000);
    // Only disabling stops API tokens.
    expect((await bearer(b, member.apiToken)).status).toBe(200);
  });
});

describe('a deleted account', () => {
  it('loses its tokens with it, and its page token, on both instances', async () => {
    const member = await signedInMember('deleted');
    const started = performance.now();
    await db().user.delete({ where: { id: member.account.id } });
    for (const server of [a, b]) {
      const ms = await Promise.all([
        refusedAfter(started, () => bearer(server, member.apiToken), (response) => expect([40102, 40104]).toContain((response.body as { error: number }).error)),
        refusedAfter(started, () => bearer(server, member.pageToken), (response) => expectError(response, 401, 40104)),
      ]);
      for (const t of ms) expect(t).toBeLessThan(1000);
    }
  });

  it.runIf(testEngine() === 'sqlite')('deleted with foreign keys off (an SQLite shell\'s default): its tokens are refused all the same', async () => {
    const member = await signedInMember('deleted-by-hand');
    const file = new Database(sqliteFilePath(database.url));
    try {
      file.pragma('foreign_keys = OFF');
      file.prepare('DELETE FROM "User" WHERE "id" = ?').run(member.account.id);
    } finally {
      file.close();
    }
    expect(await db().apiToken.count({ where: { createdById: member.account.id } })).toBe(1);
    const started = performance.now();
    const ms = await refusedAfter(started, () => bearer(a, member.apiToken), (response) =>
      expectError(response, 401, 40104, 'The API token has been revoked: its account no longer exists'),
    );
    expect(ms).toBeLessThan(1000);
  });
});

describe('a session', () => {
  const cookieFor = async (account: TestAccount, authTime: number) => {
    const { sessionVersion } = await db().user.findUniqueOrThrow({ where: { id: account.id } });
    const jwt = await encode({ token: { sub: account.id, email: account.email, ver: sessionVersion, authTime }, secret: TEST_AUTH_SECRET, maxAge: 24 * 60 * 60 });
    return `${SESSION_COOKIE}=${jwt}`;
  };
  const TWELVE_HOURS = 12 * 60 * 60;

  it('ends 12 hours after its sign-in, however it was kept', async () => {
    const account = await newAccount('staff', 'aged');
    const cookie = await cookieFor(account, Math.floor(Date.now() / 1000) - TWELVE_HOURS - 60);
    expect((await tradeCookie(a, cookie)).status).toBe(401);
    const session = await request(a, '/api/auth/session', { headers: { cookie } });
    expect(session.body).toEqual({});
  });

  it('is not extended by GET /api/auth/session: the cookie it re-issues expires when the sign-in does', async () => {
    const account = await newAccount('staff', 'refreshed');
    const authTime = Math.floor(Date.now() / 1000) - TWELVE_HOURS + 120;
    const cookie = await cookieFor(account, authTime);
    const response = await fetch(`${a.url}/api/auth/session`, { headers: { cookie } });
    expect((await response.json()) as unknown).toMatchObject({ user: { id: account.id } });
    const reissued = response.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`))!;
    const token = await decode({ token: reissued.slice(SESSION_COOKIE.length + 1).split(';')[0], secret: TEST_AUTH_SECRET });
    expect(token!.exp).toBeLessThanOrEqual(authTime + TWELVE_HOURS);
    expect(token!.authTime).toBe(authTime);
  });
});
