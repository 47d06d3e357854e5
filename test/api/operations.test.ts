// Behaviour that needs servers of its own: health, faults, restarts.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectError, request, uniqueId } from '../support/api';
import { createTestDatabase, testEngine, tokenIn } from '../support/database';
import { startServer, type RunningServer } from '../support/server';

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function serverOn(databaseUrl: string, waitFor?: 'healthy' | 'listening'): Promise<RunningServer> {
  const server = await startServer({ databaseUrl, waitFor });
  cleanups.push(() => server.stop('SIGKILL'));
  return server;
}

const tokenFor = async (url: string) => (await tokenIn(url, 'ops')).token;

describe('GET /api/health', () => {
  it('answers 200 {"status":"ok"} without a token when the database answers', async () => {
    const database = await createTestDatabase();
    cleanups.push(database.remove);
    const server = await serverOn(database.url);
    const response = await request(server, '/api/health');
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"status":"ok"}');
  });

  it('answers 503 with an Error when the database cannot be opened', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'plant-store-broken-'));
    cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
    // SQLite: the "database file" is a directory. PostgreSQL: the database does not exist.
    const brokenUrl =
      testEngine() === 'sqlite' ? `file:${directory}` : `postgresql://postgres@127.0.0.1:5432/plant_store_absent_${process.pid}`;
    const server = await serverOn(brokenUrl, 'listening');
    expectError(await request(server, '/api/health'), 503, 50301, 'The database does not answer');

    // The API too: a token (well-formed, from another store) cannot be checked, and that is not
    // the client's fault nor a fault in the server: 503 with Retry-After, on both paths.
    const database = await createTestDatabase();
    cleanups.push(database.remove);
    const token = await tokenFor(database.url);
    const bearer = { authorization: `Bearer ${token}` };
    for (const [path, init] of [
      ['/plants', { headers: bearer }],
      ['/plants', { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"id": 1, "name": "Unstored"}' }],
      ['/plants/1', { headers: bearer }],
      ['/plants/next-id', { headers: bearer }],
      ['/audit-events', { headers: bearer }],
    ] as const) {
      const response = await request(server, path, init);
      expectError(response, 503, 50301, 'The database does not answer: retry in a moment');
      expect(response.headers.get('retry-after'), path).toBe('5');
    }
  });
});

describe('faults', () => {
  it('a real fault answers 500 with a generic message, and the log holds the detail under the request id', async () => {
    const database = await createTestDatabase();
    cleanups.push(database.remove);
    const token = await tokenFor(database.url);
    const server = await serverOn(database.url);
    await database.execute('DROP TABLE "Plant"');

    const response = await request(server, '/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"id": ${uniqueId()}, "name": "Doomed"}`,
    });
    const message = expectError(response, 500, 50001);
    expect(message).toMatch(/^Internal error/);
    const requestId = response.headers.get('x-request-id')!;
    expect(requestId).toBeTruthy();
    await expect.poll(() => server.output()).toMatch(new RegExp(`"level":"error".*"requestId":"${requestId}".*Plant`));
  });
});

describe('durability', () => {
  it('an acknowledged create survives kill -9 and a restart', async () => {
    const database = await createTestDatabase();
    cleanups.push(database.remove);
    const token = await tokenFor(database.url);
    const first = await serverOn(database.url);
    const ids = Array.from({ length: 20 }, () => uniqueId());
    for (const id of ids) {
      const created = await request(first, '/plants', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `{"id": ${id}, "name": "Survivor"}`,
      });
      expect(created.status).toBe(200);
    }
    await first.stop('SIGKILL');

    const second = await serverOn(database.url);
    for (const id of ids) {
      const read = await request(second, `/plants/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(read.text).toBe(`{"id":${id},"name":"Survivor"}`);
    }
  });
});

describe('tokens made by one process are seen by the server at once', () => {
  it('a token created in the shared database works immediately', async () => {
    const database = await createTestDatabase();
    cleanups.push(database.remove);
    const server = await serverOn(database.url);
    const token = await tokenFor(database.url);
    const response = await request(server, '/plants', { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.text).toBe('[]');
  });
});
