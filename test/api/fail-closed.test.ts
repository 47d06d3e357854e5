// The direct path answers as Next would only for the build it was written against. A copy of the
// production build is tampered with, one way at a time, and started: the server must say why in
// one log line and send everything through Next (server/build-check.mjs).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createOn, request } from '../support/api';
import { testEngine, tokenIn } from '../support/database';
import { test as withOwnServers, type OwnServer } from '../support/fixtures';

// A copy of the production build of the file's own, and a token in the file's own database.
const test = withOwnServers
  .extend('build', { scope: 'file' }, async ({}, { onCleanup }) => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'plant-store-tampered-'));
    onCleanup(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(path.resolve('.next/standalone'), copy, { recursive: true });
    return copy;
  })
  .extend('token', { scope: 'file' }, async ({ ownDatabase }) => (await tokenIn(ownDatabase.url, 'fail-closed')).token);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests as Next writes them

/** Rewrites a JSON file of the build's copy for the duration of `work`, then puts it back. */
async function withTampered(build: string, file: string, change: (json: Json) => void, work: () => Promise<void>) {
  const target = path.join(build, file);
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

/** `server`, started on a tampered build, said why in one log line, and sends everything through Next. */
async function expectFallback(server: OwnServer, token: string, reason: RegExp) {
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
}

describe.skipIf(testEngine() !== 'sqlite')('a build the direct path was not written for', () => {
  test('is served directly when untouched', async ({ startOwnServer, build, ownDatabase, token }) => {
    const server = await startOwnServer({ database: ownDatabase, standaloneDir: build });
    expect(server.output()).not.toMatch(/direct routes off/);
    expect(server.output()).toMatch(/route handlers answered directly: \/plants, \/plants\/\[id\]/);
    expect((await request(server, '/plants/1', { headers: { authorization: `Bearer ${token}` } })).headers.get('vary')).toBe('Accept-Encoding');
  });

  // Each tampering: the copy rewritten, a server started on it, the copy put back.
  const tamperings: { name: string; file: string; change: (json: Json) => void; reason: RegExp }[] = [
    { name: 'another Next version', file: 'node_modules/next/package.json', change: (json) => (json.version = '16.5.0'), reason: /next is 16\.5\.0, the direct path was written against 16\.4\.6/ },
    { name: 'another manifest format', file: '.next/routes-manifest.json', change: (json) => (json.version = 4), reason: /routes-manifest\.json: version 4, expected 3/ },
    {
      name: 'a rewrite that touches a direct path',
      file: '.next/routes-manifest.json',
      change: (json) => json.rewrites.afterFiles.push({ source: '/plants/:id', destination: '/plants', regex: '^/plants(?:/([^/]+?))(?:/)?$' }),
      reason: /a rewrite rule \(\/plants\/:id\) touches \/plants\/1/,
    },
    {
      name: 'a proxy that runs on a direct path',
      file: '.next/server/functions-config-manifest.json',
      change: (json) => (json.functions['/_middleware'].matchers = [{ regexp: '^/.*$', originalSource: '/:path*' }]),
      reason: /the proxy runs on \/plants/,
    },
    {
      name: 'a route under /plants the direct path does not know',
      file: '.next/server/app-paths-manifest.json',
      change: (json) => (json['/plants/new/route'] = 'app/plants/next-id/route.js'),
      reason: /\/plants\/new\/route is not known to the direct path/,
    },
    {
      name: 'a header rule with conditions on a direct path',
      file: '.next/routes-manifest.json',
      change: (json) => json.headers.push({ source: '/plants', has: [{ type: 'header', key: 'x-a' }], headers: [{ key: 'x-b', value: '1' }], regex: '^/plants$' }),
      reason: /a header rule \(\/plants\) touches \/plants/,
    },
  ];
  for (const { name, file, change, reason } of tamperings) {
    test(name, async ({ startOwnServer, build, ownDatabase, token }) => {
      await withTampered(build, file, change, async () => expectFallback(await startOwnServer({ database: ownDatabase, standaloneDir: build }), token, reason));
    });
  }
});
