// The direct path answers as Next would only for the build it was written against. A copy of the
// production build is tampered with, one way at a time, and started: the server must say why in
// one log line and send everything through Next (server/build-check.mjs).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testEngine, tokenIn } from '../support/database';
import { startServer } from '../support/server';
import { createOn, request } from '../support/api';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

let copy: string;
let databaseUrl: string;
let token: string;

beforeAll(async () => {
  copy = mkdtempSync(path.join(os.tmpdir(), 'plant-store-tampered-'));
  cleanups.push(() => rmSync(copy, { recursive: true, force: true }));
  cpSync(path.resolve('.next/standalone'), copy, { recursive: true });
  const database = await createTestDatabase();
  cleanups.push(database.remove);
  databaseUrl = database.url;
  ({ token } = await tokenIn(database.url, 'fail-closed'));
}, 60_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests as Next writes them

/** Rewrites a JSON file of the copy for the duration of `work`, then puts it back. */
async function withTampered(file: string, change: (json: Json) => void, work: () => Promise<void>) {
  const target = path.join(copy, file);
  const original = readFileSync(target, 'utf8');
  const json = JSON.parse(original);
  change(json);
  writeFileSync(target, JSON.stringify(json));
  try {
    await work();
  } finally {
    writeFileSync(target, original);
  }
}

async function expectFallback(reason: RegExp) {
  const server = await startServer({ databaseUrl, standaloneDir: copy });
  try {
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('direct routes off'));
    expect(lines).toHaveLength(1);
    const logged = JSON.parse(lines[0]);
    expect(logged).toMatchObject({ level: 'warn' });
    expect(logged.reasons.join('\n')).toMatch(reason);
    expect(server.output()).toMatch(/"served":"everything through Next \(the build check failed/);
    // Answered by Next's router: only it names its own request headers in Vary.
    const created = await createOn(server, token, '{"id": 1, "name": "Fern"}');
    expect(created.status).toBe(200);
    expect(created.headers.get('vary')).toMatch(/\brsc\b/);
  } finally {
    await server.stop('SIGKILL');
  }
}

describe.skipIf(testEngine() !== 'sqlite')('a build the direct path was not written for', () => {
  it('is served directly when untouched', async () => {
    const server = await startServer({ databaseUrl, standaloneDir: copy });
    try {
      expect(server.output()).not.toMatch(/direct routes off/);
      expect(server.output()).toMatch(/route handlers answered directly: \/plants, \/plants\/\[id\]/);
      expect((await request(server, '/plants/1', { headers: { authorization: `Bearer ${token}` } })).headers.get('vary')).toBe('Accept-Encoding');
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('another Next version', async () => {
    await withTampered('node_modules/next/package.json', (json) => (json.version = '16.5.0'), () => expectFallback(/next is 16\.5\.0, the direct path was written against 16\.4\.6/));
  });

  it('another manifest format', async () => {
    await withTampered('.next/routes-manifest.json', (json) => (json.version = 4), () => expectFallback(/routes-manifest\.json: version 4, expected 3/));
  });

  it('a rewrite that touches a direct path', async () => {
    const rewrite = { source: '/plants/:id', destination: '/plants', regex: '^/plants(?:/([^/]+?))(?:/)?$' };
    await withTampered(
      '.next/routes-manifest.json',
      (json) => json.rewrites.afterFiles.push(rewrite),
      () => expectFallback(/a rewrite rule \(\/plants\/:id\) touches \/plants\/1/),
    );
  });

  it('a proxy that runs on a direct path', async () => {
    await withTampered(
      '.next/server/functions-config-manifest.json',
      (json) => (json.functions['/_middleware'].matchers = [{ regexp: '^/.*$', originalSource: '/:path*' }]),
      () => expectFallback(/the proxy runs on \/plants/),
    );
  });

  it('a route under /plants the direct path does not know', async () => {
    await withTampered(
      '.next/server/app-paths-manifest.json',
      (json) => (json['/plants/new/route'] = 'app/plants/next-id/route.js'),
      () => expectFallback(/\/plants\/new\/route is not known to the direct path/),
    );
  });

  it('a header rule with conditions on a direct path', async () => {
    await withTampered(
      '.next/routes-manifest.json',
      (json) => json.headers.push({ source: '/plants', has: [{ type: 'header', key: 'x-a' }], headers: [{ key: 'x-b', value: '1' }], regex: '^/plants$' }),
      () => expectFallback(/a header rule \(\/plants\) touches \/plants/),
    );
  });
});
