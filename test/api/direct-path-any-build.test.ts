// The direct path depends on no one version of Next: the server calls the route handlers from their
// source (server/direct-routes.ts), and reads neither Next's compiled routes nor its manifests to
// do it. A copy of the production build is made to look like another Next (another version,
// manifests of another format) and started: the API is still answered directly, and the start-up
// log names the routes. API_DIRECT_ROUTES=off sends everything through Next.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createOn, request } from '../support/api';
import { testEngine, tokenIn } from '../support/database';
import { test as withOwnServers } from '../support/fixtures';

// A copy of the production build of the file's own, and a token in the file's own database.
const test = withOwnServers
  .extend('build', { scope: 'file' }, async ({}, { onCleanup }) => {
    const copy = mkdtempSync(path.join(os.tmpdir(), 'plant-store-another-next-'));
    onCleanup(() => rmSync(copy, { recursive: true, force: true }));
    cpSync(path.resolve('.next/standalone'), copy, { recursive: true });
    return copy;
  })
  .extend('token', { scope: 'file' }, async ({ ownDatabase }) => (await tokenIn(ownDatabase.url, 'direct-path-any-build')).token);

/** Rewrites a JSON file of the build's copy. */
function rewrite(build: string, file: string, change: (json: Record<string, unknown>) => void) {
  const target = path.join(build, file);
  const json = JSON.parse(readFileSync(target, 'utf8'));
  change(json);
  writeFileSync(target, JSON.stringify(json));
}

const DIRECT_LINE = /"served":"route handlers answered directly: \/plants, \/plants\/\[id\], \/plants\/batch, \/stats, \/api\/health, \/api\/bench\/empty"/;

describe.skipIf(testEngine() !== 'sqlite')('the direct path', () => {
  test('serves the API on a build of another version of Next, with manifests of another format', async ({ startOwnServer, build, ownDatabase, token }) => {
    rewrite(build, 'node_modules/next/package.json', (json) => (json.version = '16.9.0'));
    for (const file of ['.next/server/app-paths-manifest.json', '.next/server/functions-config-manifest.json', '.next/prerender-manifest.json']) {
      rewrite(build, file, (json) => (json.version = 99));
    }
    const server = await startOwnServer({ database: ownDatabase, standaloneDir: build });
    expect(server.output()).toMatch(DIRECT_LINE);
    const created = await createOn(server, token, '{"id": 1, "name": "Fern"}');
    expect(created.status).toBe(200);
    // Answered directly: Next's router names its own request headers in Vary, the direct path only Accept-Encoding.
    expect(created.headers.get('vary')).toBe('Accept-Encoding');
    expect((await request(server, '/plants/1', { headers: { authorization: `Bearer ${token}` } })).headers.get('vary')).toBe('Accept-Encoding');
  });

  test('is off with API_DIRECT_ROUTES=off: everything goes through Next', async ({ startOwnServer, ownDatabase, token }) => {
    const server = await startOwnServer({ database: ownDatabase, env: { API_DIRECT_ROUTES: 'off' } });
    expect(server.output()).toMatch(/"served":"everything through Next \(API_DIRECT_ROUTES=off\)"/);
    const created = await createOn(server, token, '{"id": 2, "name": "Moss"}');
    expect(created.status).toBe(200);
    expect(created.headers.get('vary')).toMatch(/\brsc\b/);
  });
});
