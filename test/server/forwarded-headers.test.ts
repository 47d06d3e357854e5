// X-Forwarded-* are believed only when the operator says a proxy sets them (TRUST_PROXY), and
// no answer takes its origin from them otherwise: not the OpenAPI document's servers, not
// next-auth's pages and redirects. PUBLIC_URL, when set, names the origin. Engine-independent,
// so it runs on SQLite only.
import { describe, expect } from 'vitest';
import { generateApiToken } from '../../lib/auth/tokens/format';
import { expectError, request } from '../support/api';
import { startOfWindow } from '../support/clock';
import { test as base } from '../support/fixtures';
import type { RunningServer } from '../support/server';
import { csrfOn, logLinesIn, postAuth, signInOn, userIn } from '../support/sign-in';

const EMAIL = 'forwarded@example.com';
const PASSWORD = 'a long forwarded passphrase';
const EVIL = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.66', forwarded: 'host=evil.example' };

// Three servers on the file's database, one account in it: without either setting, with
// PUBLIC_URL, and behind a trusted proxy.
const test = base.extend('servers', { scope: 'file' }, async ({ ownDatabase, startFileServer }) => {
  await userIn(ownDatabase.url, EMAIL, PASSWORD);
  const [plain, configured, proxied] = await Promise.all(
    ([{ AUTH_FAILURES_PER_MINUTE: '5' }, { PUBLIC_URL: 'https://plants.example.com' }, { TRUST_PROXY: 'true' }] as Record<string, string>[]).map((env) =>
      startFileServer({ database: ownDatabase, env }),
    ),
  );
  return { plain, configured, proxied };
});

describe('forwarded headers', () => {
  /** The origin every answer of `server` names, to a client sending `headers`. */
  async function originsNamed(server: RunningServer, headers: Record<string, string>) {
    const named: string[] = [];
    const collect = (text: string | null) => named.push(...(text?.match(/https?:\/\/[a-z0-9.-]+(:\d+)?/gi) ?? []));
    const document = await request(server, '/openapi.json', { headers });
    collect((document.body as { servers: { url: string }[] }).servers[0].url);
    const signOutPage = await request(server, '/api/auth/signout', { headers });
    collect(/<form action="([^"]*)"/.exec(signOutPage.text)?.[1] ?? 'missing');
    const signInPage = await fetch(`${server.url}/api/auth/signin?callbackUrl=%2Ftokens`, { headers, redirect: 'manual' });
    collect(decodeURIComponent(signInPage.headers.get('location') ?? ''));
    const csrf = await csrfOn(server);
    const withHeaders = async (action: string, fields: Record<string, string>, json: boolean) => {
      const response = await fetch(`${server.url}/api/auth/${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...headers, cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...fields, csrfToken: csrf.token, ...(json ? { json: 'true' } : {}) }),
      });
      collect(response.headers.get('location'));
      collect(await response.text());
    };
    await withHeaders('callback/credentials', { email: EMAIL, password: PASSWORD, callbackUrl: '/tokens' }, true);
    await withHeaders('callback/credentials', { email: EMAIL, password: PASSWORD, callbackUrl: '/tokens' }, false);
    await withHeaders('callback/credentials', { email: EMAIL, password: 'wrong password' }, true);
    await withHeaders('signout', { callbackUrl: '/login' }, true);
    return named;
  }

  test('without TRUST_PROXY or PUBLIC_URL, answers name no origin at all, whatever the client sends', async ({ servers: { plain } }) => {
    expect(await originsNamed(plain, EVIL)).toEqual([]);
    const document = await request(plain, '/openapi.json', { headers: EVIL });
    expect((document.body as { servers: unknown }).servers).toEqual([{ url: '/' }]);
    const signOutPage = await request(plain, '/api/auth/signout', { headers: EVIL });
    expect(signOutPage.text).toContain('<form action="/api/auth/signout" method="POST">');
  });

  test('with PUBLIC_URL, answers name it and nothing else', async ({ servers: { configured } }) => {
    const named = await originsNamed(configured, EVIL);
    expect(named.length).toBeGreaterThanOrEqual(2);
    expect(new Set(named)).toEqual(new Set(['https://plants.example.com']));
  });

  test('with TRUST_PROXY, next-auth names the host and scheme the proxy forwards; the document stays relative', async ({ servers: { proxied } }) => {
    const named = await originsNamed(proxied, { 'x-forwarded-host': 'plants.example.net', 'x-forwarded-proto': 'https' });
    expect(named.length).toBeGreaterThanOrEqual(2);
    expect(new Set(named)).toEqual(new Set(['https://plants.example.net']));
    const document = await request(proxied, '/openapi.json', { headers: { 'x-forwarded-host': 'plants.example.net' } });
    expect((document.body as { servers: unknown }).servers).toEqual([{ url: '/' }]);
  });

  test("without TRUST_PROXY, a client's X-Forwarded-For does not change its address", async ({ servers: { plain, configured, proxied } }) => {
    // Counts are per whole minute: a fresh one.
    // All three servers' clocks together: the sign-in throttle they share is in the database.
    await startOfWindow(plain.clock, configured.clock, proxied.clock);
    const answers = [];
    for (let index = 1; index <= 6; index++) {
      answers.push(await request(plain, '/plants', { headers: { authorization: `Bearer ${generateApiToken()}`, 'x-forwarded-for': `198.51.100.${index}` } }));
    }
    expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401]);
    expectError(answers[5], 429, 42902);

    await signInOn(plain, EMAIL, 'not it', {});
    await postAuth(plain, 'callback/credentials', { email: EMAIL, password: 'not it either' });
    const addresses = logLinesIn(plain.output(), ['sign-in failed'], EMAIL).map((line) => line.address);
    expect(addresses.length).toBeGreaterThan(0);
    expect(new Set(addresses)).toEqual(new Set(['127.0.0.1']));
  });

  test('with TRUST_PROXY, the address is the one the proxy appended', async ({ servers: { proxied } }) => {
    const csrf = await csrfOn(proxied);
    await fetch(`${proxied.url}/api/auth/callback/credentials`, {
      method: 'POST',
      headers: { cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.9.9.9, 203.0.113.50' },
      body: new URLSearchParams({ email: EMAIL, password: 'wrong again', csrfToken: csrf.token, json: 'true' }),
    });
    // The last failure; earlier ones came with no X-Forwarded-For, from the socket's address.
    await expect.poll(() => logLinesIn(proxied.output(), ['sign-in failed'], EMAIL).at(-1)?.address).toBe('203.0.113.50');
  });
});
