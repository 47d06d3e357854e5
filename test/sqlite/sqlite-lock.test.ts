// A locked SQLite file, over HTTP: SQLite's plant statements run on their own connection beside
// Prisma's (lib/db/sqlite/connection.ts), and a file another connection holds must neither stall the
// server nor fail a create that could simply wait. That they read and write what Prisma does, and
// the store's own side of a locked file, are in the store contract tests (test/db/contract/plants.test.ts).
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import { sqliteFilePath } from '../../lib/db/url';
import { createOn, expectError, request, uniqueId } from '../support/api';
import { tokenIn } from '../support/database';
import { test as it, type OwnServer } from '../support/fixtures';

/** A server on a database of its own (so holding its lock cannot slow other test files), a token, and its file. */
async function lockableServer(startOwnServer: () => Promise<OwnServer>) {
  const server = await startOwnServer();
  const { token } = await tokenIn(server.database.url, 'lock');
  return { server, token, file: sqliteFilePath(server.database.url) };
}

/** Takes the write lock from another connection, as a migration or a long transaction would. */
function holdWriteLock(file: string): { release(): void } {
  const connection = new Database(file);
  connection.exec('BEGIN IMMEDIATE');
  return {
    release() {
      connection.exec('COMMIT');
      connection.close();
    },
  };
}

describe('SQLite plant statements on a locked file', () => {
  it('wait for a lock held elsewhere without stalling other requests, then store the plant', async ({ startOwnServer }) => {
    const { server, token, file } = await lockableServer(startOwnServer);
    const id = uniqueId();
    const lock = holdWriteLock(file);
    let created: Promise<Awaited<ReturnType<typeof createOn>>>;
    let settled = false;
    try {
      created = createOn(server, token, `{"id": ${id}, "name": "Patient"}`).finally(() => (settled = true));
      // While the create waits, reads still answer: round after round, each within the bound,
      // and the create still waiting after them. A write that waited for the lock synchronously
      // would stall the whole process for its 5 s busy timeout: the bound tells the two apart
      // with room for a busy machine.
      for (let round = 0; round < 3; round++) {
        const started = Date.now();
        expect((await request(server, '/api/health')).status).toBe(200);
        expect((await request(server, `/plants/${id}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
        expect(Date.now() - started).toBeLessThan(2000);
      }
      expect(settled).toBe(false);
    } finally {
      lock.release();
    }
    const response = await created;
    expect(response.status, response.text).toBe(200);
    expect(response.text).toBe(`{"id":${id},"name":"Patient"}`);
  });

  it('answer 503 with Retry-After when the lock is held for more than 5 s, and store nothing', async ({ startOwnServer }) => {
    const { server, token, file } = await lockableServer(startOwnServer);
    const id = uniqueId();
    const lock = holdWriteLock(file);
    let response;
    try {
      response = await createOn(server, token, `{"id": ${id}, "name": "Impatient"}`);
    } finally {
      lock.release();
    }
    expectError(response, 503, 50301, 'The database is busy: retry in a moment');
    expect(response.headers.get('retry-after')).toBe('1');
    const read = await request(server, `/plants/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(read.status).toBe(404);
  });
});
