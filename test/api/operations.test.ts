// Health, faults, restarts, and tokens seen at once. What breaks or restarts a server does it to a
// server of its own; the rest asks the project's shared server.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, onTestFinished } from 'vitest';
import { expectError, request, sharedServer, uniqueId } from '../support/api';
import { createTestDatabase, testEngine, tokenIn } from '../support/database';
import { test } from '../support/fixtures';
import { startServer } from '../support/server';

const tokenFor = async (url: string) => (await tokenIn(url, 'ops')).token;

describe('GET /api/health', () => {
  test('answers 200 {"status":"ok"} without a token when the database answers', async () => {
    const response = await request(sharedServer(), '/api/health');
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"status":"ok"}');
  });

  test('answers 503 with an Error when the database cannot be opened', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'plant-store-broken-'));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    // SQLite: the "database file" is a directory. PostgreSQL: the database does not exist.
    const brokenUrl =
      testEngine() === 'sqlite' ? `file:${directory}` : `postgresql://postgres@127.0.0.1:5432/plant_store_absent_${process.pid}`;
    // No test database behind it, so not one of startOwnServer's.
    const server = await startServer({ databaseUrl: brokenUrl, waitFor: 'listening' });
    onTestFinished(() => server.stop('SIGKILL'));
    expectError(await request(server, '/api/health'), 503, 50301, 'The database does not answer');

    // The API too: a token (well-formed, from another store) cannot be checked, and that is not
    // the client's fault nor a fault in the server: 503 with Retry-After, on both paths.
    const database = await createTestDatabase();
    onTestFinished(database.remove);
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
  test('a real fault answers 500 with a generic message, and the log holds the detail under the request id', async ({ startOwnServer }) => {
    const server = await startOwnServer();
    const token = await tokenFor(server.database.url);
    await server.database.execute('DROP TABLE "Plant"');

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
  test('an acknowledged create survives kill -9 and a restart', async ({ startOwnServer }) => {
    const first = await startOwnServer();
    const token = await tokenFor(first.database.url);
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

    const second = await startOwnServer({ database: first.database });
    for (const id of ids) {
      const read = await request(second, `/plants/${id}`, { headers: { authorization: `Bearer ${token}` } });
      expect(read.text).toBe(`{"id":${id},"name":"Survivor"}`);
    }
  });
});

describe('tokens made by one process are seen by the server at once', () => {
  test('a token created in the shared database works immediately', async () => {
    const token = await tokenFor(inject('databaseUrl'));
    const response = await request(sharedServer(), `/plants?q=${uniqueId()}`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    expect(response.text).toBe('[]');
  });
});
