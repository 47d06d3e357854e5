// X-Forwarded-* are believed only when the operator says a proxy sets them (TRUST_PROXY), and
// no answer takes its origin from them otherwise: not the OpenAPI document's servers, not
// next-auth's pages and redirects. PUBLIC_URL, when set, names the origin. When TRUST_PROXY names
// the proxy, they are believed only from a socket whose peer it is: a client on 127.0.0.2 (another
// loopback address) is not the proxy at 127.0.0.1. Engine-independent, so it runs on one engine.
import { describe, expect } from 'vitest';
import { generateApiToken } from '../../lib/auth/tokens/format';
import { expectError, request } from '../support/api';
import { startOfWindow } from '../support/clock';
import { test as base } from '../support/fixtures';
import { headerValue, rawAnswer, rawRequest } from '../support/raw-socket';
import type { RunningServer } from '../support/server';
import { csrfOn, logLinesIn, postAuth, signInOn, userIn } from '../support/sign-in';

const EMAIL = 'forwarded@example.com';
const PASSWORD = 'a long forwarded passphrase';
// The accounts signed in to on the server that names its proxy, so their failures leave EMAIL's
// alone (an account's sign-in throttle is shared by the servers) and stay under its own throttle.
const NAMED_EMAILS = { addresses: 'named-proxy@example.com', origins: 'named-proxy-origins@example.com' };
const EVIL = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '192.0.2.66', forwarded: 'host=evil.example' };
// The proxy the `named` server trusts, and a client on the same machine that is not it.
const PROXY = '127.0.0.1';
const NOT_THE_PROXY = '127.0.0.2';

// Four servers on the file's database, three accounts in it: without either setting, with
// PUBLIC_URL, behind a trusted proxy (any peer), and behind the proxy at 127.0.0.1.
const test = base.extend('servers', { scope: 'file' }, async ({ ownDatabase, startFileServer }) => {
  await userIn(ownDatabase.url, EMAIL, PASSWORD);
  for (const email of Object.values(NAMED_EMAILS)) await userIn(ownDatabase.url, email, PASSWORD);
  const [plain, configured, proxied, named] = await Promise.all(
    (
      [
        { AUTH_FAILURES_PER_MINUTE: '5' },
        { PUBLIC_URL: 'https://plants.example.com' },
        { TRUST_PROXY: 'true' },
        { TRUST_PROXY: PROXY, AUTH_FAILURES_PER_MINUTE: '5' },
      ] as Record<string, string>[]
    ).map((env) => startFileServer({ database: ownDatabase, env })),
  );
  return { plain, configured, proxied, named };
});

/** One request to `server` from the address `from`, on a connection of its own. */
function requestFrom(server: RunningServer, from: string, requestLine: string, headers: Record<string, string>, body = '') {
  const method = requestLine.split(' ', 1)[0];
  return rawAnswer(server.port, rawRequest(requestLine, { Connection: 'close', ...headers }, body), { localAddress: from, method, timeoutMs: 15_000 });
}

/**
 * A failed sign-in to `email` from `from`, sending `headers`: the address its log line records,
 * where next-auth's answer sends the browser, and whether it came with Strict-Transport-Security.
 */
async function failedSignInFrom(server: RunningServer, email: string, from: string, headers: Record<string, string>) {
  const before = logLinesIn(server.output(), ['sign-in failed'], email).length;
  const csrf = await csrfOn(server);
  const body = new URLSearchParams({ email, password: 'not the one', csrfToken: csrf.token, json: 'true' }).toString();
  const answer = await requestFrom(server, from, 'POST /api/auth/callback/credentials HTTP/1.1', {
    cookie: csrf.cookie,
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  }, body);
  await expect.poll(() => logLinesIn(server.output(), ['sign-in failed'], email).length).toBe(before + 1);
  return {
    address: logLinesIn(server.output(), ['sign-in failed'], email).at(-1)?.address,
    url: (answer.json as { url?: string } | undefined)?.url,
    hsts: headerValue(answer, 'strict-transport-security') !== null,
  };
}

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

  test("without TRUST_PROXY, a client's X-Forwarded-For does not change its address", async ({ servers: { plain, configured, proxied, named } }) => {
    // Counts are per whole minute: a fresh one.
    // All the servers' clocks together: the sign-in throttle they share is in the database.
    await startOfWindow(plain.clock, configured.clock, proxied.clock, named.clock);
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

  describe("with TRUST_PROXY naming the proxy's address", () => {
    test("a peer that is not the proxy is known by its socket: its X-Forwarded-For neither renews its allowance nor names it", async ({ servers }) => {
      const { named } = servers;
      await startOfWindow(...Object.values(servers).map((server) => server.clock));
      const answers = [];
      for (let index = 1; index <= 6; index++) {
        const headers = { authorization: `Bearer ${generateApiToken()}`, 'x-forwarded-for': `198.51.100.${index}` };
        answers.push(await requestFrom(named, NOT_THE_PROXY, 'GET /plants HTTP/1.1', headers));
      }
      expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429]);
      expect(answers[5].json?.error).toBe(42902);
      // The proxy's clients each have an allowance of their own, the one that client spent none of it.
      const throughProxy = await requestFrom(named, PROXY, 'GET /plants HTTP/1.1', { authorization: `Bearer ${generateApiToken()}`, 'x-forwarded-for': '198.51.100.1' });
      expect(throughProxy.status).toBe(401);

      expect((await failedSignInFrom(named, NAMED_EMAILS.addresses, NOT_THE_PROXY, { 'x-forwarded-for': '203.0.113.77', 'x-real-ip': '203.0.113.78' })).address).toBe(NOT_THE_PROXY);
      // Through the proxy, the address it appended; what the client wrote before it changes nothing.
      expect((await failedSignInFrom(named, NAMED_EMAILS.addresses, PROXY, { 'x-forwarded-for': '192.0.2.66, 203.0.113.50' })).address).toBe('203.0.113.50');
    });

    test('a peer that is not the proxy names neither the origin nor the scheme: not by X-Forwarded-Host, not by Host', async ({ servers: { named } }) => {
      const forwarded = { 'x-forwarded-host': 'plants.example.net', 'x-forwarded-proto': 'https' };
      for (const headers of [forwarded, {}]) {
        const fromClient = await failedSignInFrom(named, NAMED_EMAILS.origins, NOT_THE_PROXY, headers);
        expect(fromClient.url).toMatch(/^\/[^/]/);
        expect(fromClient.hsts).toBe(false);
      }
      // The same requests through the proxy: its word names the origin, or the Host it passed on.
      const fromProxy = await failedSignInFrom(named, NAMED_EMAILS.origins, PROXY, forwarded);
      expect(fromProxy.url).toMatch(/^https:\/\/plants\.example\.net\//);
      expect(fromProxy.hsts).toBe(true);
      expect((await failedSignInFrom(named, NAMED_EMAILS.origins, PROXY, {})).url).toMatch(/^http:\/\/plants\.test\//);
    });
  });
});
