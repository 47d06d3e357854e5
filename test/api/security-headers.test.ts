// Every HTML answer carries exactly one Content-Security-Policy and the other security headers:
// every page of the build (signed in and out), 404s inside and outside the proxy's paths,
// next-auth's pages, and each of them again as a router prefetch. Every answer carries
// Strict-Transport-Security when clients reach the service over https, and none otherwise. Over a
// raw socket, so a header sent twice shows as two.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { newAccount } from '../support/accounts';
import { newToken, sharedServer } from '../support/api';
import { testEngine, tokenIn } from '../support/database';
import { test as base } from '../support/fixtures';
import { rawAnswer, requestBytes, type RawResponse } from '../support/raw-socket';
import { signInOn } from '../support/sign-in';

let session: string;

beforeAll(async () => {
  const { email, password } = await newAccount('staff', 'headers');
  session = (await signInOn({ url: sharedServer().url }, email, password)).session!;
});

/** The pages of this build, from its own manifest, so a new page is walked without being listed here. */
function builtPages(): string[] {
  const manifest = JSON.parse(readFileSync('.next/app-path-routes-manifest.json', 'utf8')) as Record<string, string>;
  return Object.entries(manifest)
    .filter(([file, route]) => file.endsWith('/page') && !route.startsWith('/_'))
    .map(([, route]) => route);
}

const NOT_FOUND = ['/no-such-page', '/plants/1/more', '/plantsandmore', '/api/no-such-route', '/api/auth/no/such/action', '/openapi.json/more', '/favicon.ico/more', '/icon.svg/more', '/_next/static/no-such-file.js'];
const NEXT_AUTH_PAGES = ['/api/auth/signout', '/api/auth/verify-request'];

// A page's first render on a fresh server, on a loaded machine, may take this long.
const FIRST_RENDER_MS = 30_000;

async function get(path: string, headers: string[] = []): Promise<RawResponse> {
  return rawAnswer(sharedServer().port, requestBytes([`GET ${path} HTTP/1.1`, `Host: ${new URL(sharedServer().url).host}`, 'Connection: close', ...headers]), { timeoutMs: FIRST_RENDER_MS });
}

const all = (answer: RawResponse, name: string) => answer.headerList.filter(([header]) => header === name).map(([, value]) => value);

function expectSecured(answer: RawResponse, where: string) {
  const policies = all(answer, 'content-security-policy');
  expect(policies, `${where}: one CSP`).toHaveLength(1);
  expect(policies[0], where).toContain("frame-ancestors 'none'");
  expect(policies[0], where).toMatch(/object-src 'none'|default-src 'none'/);
  expect(all(answer, 'x-frame-options'), where).toEqual(['DENY']);
  expect(all(answer, 'x-content-type-options'), where).toEqual(['nosniff']);
  expect(all(answer, 'referrer-policy'), where).toEqual(['strict-origin-when-cross-origin']);
  return policies[0];
}

describe('every HTML answer carries the security headers', () => {
  it('the build has the pages this walks', () => {
    expect(builtPages().sort()).toEqual(expect.arrayContaining(['/', '/docs', '/login', '/tokens']));
  });

  it.each([
    ['signed out', false],
    ['signed in', true],
  ])('%s: every page, 404 and next-auth page, fetched and prefetched, has exactly one policy', async (_label, signedIn) => {
    let htmlAnswers = 0;
    for (const path of [...builtPages(), ...NOT_FOUND, ...NEXT_AUTH_PAGES]) {
      for (const prefetch of [false, true]) {
        const headers = [...(signedIn ? [`Cookie: ${session}`] : []), ...(prefetch ? ['next-router-prefetch: 1'] : [])];
        const answer = await get(path, headers);
        const where = `${path}${prefetch ? ' (prefetch)' : ''}${signedIn ? ' signed in' : ''}: ${answer.status}`;
        expect(answer.status, where).toBeLessThan(500);
        if (!/text\/html/.test(all(answer, 'content-type')[0] ?? '')) continue;
        htmlAnswers++;
        const policy = expectSecured(answer, where);
        const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
        if (nonce) {
          // The page policy: every script the page carries has its nonce, or it would not run.
          const scripts = answer.text.match(/<script\b[^>]*>/g) ?? [];
          expect(scripts.length, where).toBeGreaterThan(0);
          for (const script of scripts) expect(script, where).toContain(`nonce="${nonce}"`);
        } else {
          // The static policy: no script runs at all.
          expect(policy, where).not.toContain('script-src');
        }
      }
    }
    expect(htmlAnswers).toBeGreaterThanOrEqual(2 * (NOT_FOUND.length + NEXT_AUTH_PAGES.length));
  });

  it('/favicon.ico, which browsers ask for on their own, sends them to the icon, with the static policy', async () => {
    const answer = await get('/favicon.ico');
    expect(answer.status).toBe(308);
    expect(all(answer, 'location')).toEqual(['/icon.svg']);
    expect(expectSecured(answer, '/favicon.ico')).toMatch(/^default-src 'none'/);
    const icon = await get('/icon.svg');
    expect(icon.status).toBe(200);
    expect(all(icon, 'content-type')[0]).toMatch(/^image\/svg\+xml/);
  });

  it("404s under the API's paths get the static policy, and pages the proxy's", async () => {
    expect(all(await get('/plants/1/more'), 'content-security-policy')[0]).toMatch(/^default-src 'none'/);
    expect(all(await get('/no-such-page'), 'content-security-policy')[0]).toMatch(/'nonce-/);
  });

  it("the static policy's paths are exactly those the proxy leaves out", () => {
    const proxy = JSON.parse(readFileSync('.next/server/functions-config-manifest.json', 'utf8')).functions['/_middleware'].matchers;
    const headerRules = JSON.parse(readFileSync('.next/routes-manifest.json', 'utf8')).headers as { source: string; headers: { key: string }[] }[];
    const staticRule = headerRules.find((rule) => rule.headers.some((header) => header.key === 'Content-Security-Policy'));
    const excluded = /\(\?!([^)]*)\)/.exec(proxy[0].originalSource)?.[1];
    const included = /\(\?=([^)]*)\)/.exec(staticRule!.source)?.[1];
    expect(proxy).toHaveLength(1);
    expect(excluded).toBeTruthy();
    expect(included).toBe(excluded);
  });
});

// Strict-Transport-Security tells a browser to use only https for this host (and its subdomains)
// for two years. It goes out when clients reach the service over https: PUBLIC_URL is https, or,
// behind a proxy the operator trusts (TRUST_PROXY), that proxy's X-Forwarded-Proto (its last entry)
// says https. Never over plain http, and never on a client's own X-Forwarded-Proto. server/main.ts
// sets it before either path answers, so it is on pages, the API's direct path, Next's route
// handlers, errors, and the requests main.mjs refuses itself.
const HSTS = 'max-age=63072000; includeSubDomains';

// Strict-Transport-Security on servers of their own (SQLite only): two on the file's database,
// with a token of it. The proxied one sends everything through Next's router, so /plants is
// answered by both paths.
const test = base.extend('hsts', { scope: 'file' }, async ({ ownDatabase, startFileServer }) => {
  const { token } = await tokenIn(ownDatabase.url, 'hsts');
  const [configured, proxied] = await Promise.all([
    startFileServer({ database: ownDatabase, env: { PUBLIC_URL: 'https://plants.example.com' } }),
    startFileServer({ database: ownDatabase, env: { TRUST_PROXY: '1', API_DIRECT_ROUTES: 'off' } }),
  ]);
  return { token, configured, proxied };
});

describe('Strict-Transport-Security', () => {
  let token: string;

  beforeAll(async () => {
    token = await newToken('hsts');
  });

  /** Raw answers of `server` to `headers`: a page, the API (200 with `token`, and 401), next-auth, the document, a 404, and a target main.mjs refuses. */
  async function answersOf(server: { url: string }, token: string, headers: string[] = []): Promise<[string, RawResponse][]> {
    const host = `Host: ${new URL(server.url).host}`;
    const get = (path: string, extra: string[] = []) => rawAnswer(Number(new URL(server.url).port), requestBytes([`GET ${path} HTTP/1.1`, host, 'Connection: close', ...headers, ...extra]), { timeoutMs: FIRST_RENDER_MS });
    const answers: [string, RawResponse][] = [];
    for (const [path, extra, status] of [
      ['/login', [], 200],
      ['/plants?limit=1', [`Authorization: Bearer ${token}`], 200],
      ['/plants', [], 401],
      ['/api/auth/csrf', [], 200],
      ['/openapi.json', [], 200],
      ['/no-such-page', [], 404],
      ['/%ff', [], 400],
    ] as const) {
      const answer = await get(path, [...extra]);
      expect(answer.status, path).toBe(status);
      answers.push([`${path} ${status}`, answer]);
    }
    return answers;
  }

  const expectHsts = (answers: [string, RawResponse][]) => {
    for (const [where, answer] of answers) expect(all(answer, 'strict-transport-security'), where).toEqual([HSTS]);
  };
  const expectNoHsts = (answers: [string, RawResponse][]) => {
    for (const [where, answer] of answers) expect(all(answer, 'strict-transport-security'), where).toEqual([]);
  };

  it("is never sent without PUBLIC_URL or TRUST_PROXY, whatever X-Forwarded-Proto the client sends", async () => {
    expectNoHsts(await answersOf(sharedServer(), token));
    expectNoHsts(await answersOf(sharedServer(), token, ['X-Forwarded-Proto: https']));
  });

  // Engine-independent: the servers of their own run on SQLite only. PUBLIC_URL http, with a
  // trusted proxy or without, is held by test/unit/strict-transport-security.test.ts.
  describe.runIf(testEngine() === 'sqlite')('on servers of their own', () => {

    test('PUBLIC_URL https: on every answer, through the direct path and Next alike', async ({ hsts: { token, configured } }) => {
      expect(configured.output()).toMatch(/route handlers answered directly: .*\/plants\b/);
      expectHsts(await answersOf(configured, token));
      expectHsts(await answersOf(configured, token, ['X-Forwarded-Proto: http']));
    });

    test("TRUST_PROXY: when the trusted proxy's X-Forwarded-Proto says https, and only then", async ({ hsts: { token, proxied } }) => {
      expect(proxied.output()).toContain('everything through Next (API_DIRECT_ROUTES=off)');
      expectHsts(await answersOf(proxied, token, ['X-Forwarded-Proto: https']));
      // The last entry is the trusted proxy's: what a client put before it does not count.
      expectHsts(await answersOf(proxied, token, ['X-Forwarded-Proto: http, https']));
      expectNoHsts(await answersOf(proxied, token, ['X-Forwarded-Proto: http']));
      expectNoHsts(await answersOf(proxied, token, ['X-Forwarded-Proto: https, http']));
      expectNoHsts(await answersOf(proxied, token));
    });
  });
});
