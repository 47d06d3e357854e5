// Access ends the moment it is withdrawn: disabling an account, changing its role, resetting its
// password, "Sign out everywhere" and signing out end every session and page token of the
// account on the instance that made the change from the next request, and on another instance
// within a second by that instance's clock (test/support/clock.ts, seenWithin: however slowly the
// machine serves the requests, a cache that lived longer fails it). Two production servers share
// this file's own database (on SQLite, one file).
import Database from 'better-sqlite3';
import { decode, encode } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { db } from '../../lib/db/client';
import { sqliteFilePath } from '../../lib/db/url';
import { newAccount, signIn, type Browser, type TestAccount } from '../support/accounts';
import { expectError, request } from '../support/api';
import { seenWithin } from '../support/clock';
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

/** How soon another instance sees access end, by its clock (docs/security.md). */
const WITHIN_MS = 1000;

describe('disabling an account', () => {
  it('ends its sessions, page tokens and API tokens at once here, within 1 s on the other instance; enabling gives back only the API tokens', async () => {
    const member = await signedInMember('disabled');
    await seenWithin(
      [b.clock],
      WITHIN_MS,
      async () => {
        expect((await callAction(asAdmin, '/staff', 'disableAccountAction', member.account.id)).value).toEqual({ ok: true });
        // The instance that made the change: the very next request.
        expectError(await bearer(a, member.pageToken), 401, 40105, /disabled/);
        expectError(await bearer(a, member.apiToken), 401, 40105, 'This account has been disabled: its tokens and sessions do not work until an admin enables it');
        expect((await tradeCookie(a, member.cookie)).status).toBe(401);
        expect((await member.onA.fetch('/tokens')).headers.get('location')).toBe('/login?callbackUrl=%2Ftokens');
      },
      // The other instance: once a second has passed by its clock, the very next request.
      async () => {
        expectError(await bearer(b, member.pageToken), 401, 40105);
        expectError(await bearer(b, member.apiToken), 401, 40105);
        expect((await tradeCookie(b, member.cookie)).status).toBe(401);
      },
    );

    await seenWithin(
      [b.clock],
      WITHIN_MS,
      async () => {
        expect((await callAction(asAdmin, '/staff', 'enableAccountAction', member.account.id)).value).toEqual({ ok: true });
        expect((await bearer(a, member.apiToken)).status).toBe(200);
      },
      async () => expect((await bearer(b, member.apiToken)).status).toBe(200),
    );
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
    await seenWithin(
      [b.clock],
      WITHIN_MS,
      async () => {
        expect((await trigger(member)).status).toBe(200);
        expectError(await bearer(a, member.pageToken), 401, 40104, 'Your sign-in has ended (signed out, or the account changed): sign in again');
        // The cookie as it was before: a copy taken earlier opens no page and mints no page token.
        expect((await tradeCookie(a, member.cookie)).status).toBe(401);
        const tokensPage = await request(a, '/tokens', { headers: { cookie: member.cookie }, redirect: 'manual' });
        expect(tokensPage.status).toBe(307);
      },
      async () => {
        expectError(await bearer(b, member.pageToken), 401, 40104);
        expect((await tradeCookie(b, member.cookie)).status).toBe(401);
      },
    );
    // Only disabling stops API tokens.
    expect((await bearer(b, member.apiToken)).status).toBe(200);
  });
});

describe('a deleted account', () => {
  it('loses its tokens with it, and its page token, on both instances', async () => {
    const member = await signedInMember('deleted');
    // Deleted in the database, behind both instances' backs: each sees it within a second by its clock.
    await seenWithin(
      [a.clock, b.clock],
      WITHIN_MS,
      () => db().user.delete({ where: { id: member.account.id } }),
      async () => {
        for (const server of [a, b]) {
          const byToken = await bearer(server, member.apiToken);
          expect(byToken.status).toBe(401);
          expect([40102, 40104]).toContain((byToken.body as { error: number }).error);
          expectError(await bearer(server, member.pageToken), 401, 40104);
        }
      },
    );
  });

  it.runIf(testEngine() === 'sqlite')('deleted with foreign keys off (an SQLite shell\'s default): its tokens are refused all the same', async () => {
    const member = await signedInMember('deleted-by-hand');
    await seenWithin(
      [a.clock],
      WITHIN_MS,
      async () => {
        const file = new Database(sqliteFilePath(database.url));
        try {
          file.pragma('foreign_keys = OFF');
          file.prepare('DELETE FROM "User" WHERE "id" = ?').run(member.account.id);
        } finally {
          file.close();
        }
        expect(await db().apiToken.count({ where: { createdById: member.account.id } })).toBe(1);
      },
      async () => {
        expectError(await bearer(a, member.apiToken), 401, 40104, 'The API token has been revoked: its account no longer exists');
      },
    );
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
