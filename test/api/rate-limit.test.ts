// RATE_LIMIT_PER_MINUTE: each caller's requests per one-minute window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, request } from '../support/api';
import { startOfWindow } from '../support/clock';
import { createTestDatabase, tokenIn, type TestDatabase } from '../support/database';
import { startServer, type RunningServer } from '../support/server';

const LIMIT = 5;
let database: TestDatabase;
let server: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  server = await startServer({ databaseUrl: database.url, env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } });
});
afterAll(async () => {
  await server?.stop();
  await database?.remove();
});

/** Windows are whole minutes: a burst starts a fresh one, so it ends in the same one. */
const awayFromWindowEdge = () => startOfWindow(server.clock);

const list = (token: string) => request(server, '/plants', { headers: { authorization: `Bearer ${token}` } });

describe('rate limiting', () => {
  it(`allows ${LIMIT} requests a minute per token, then answers 429 with Retry-After; other tokens are unaffected`, async () => {
    const [busy, other] = await Promise.all([tokenIn(database.url, 'busy'), tokenIn(database.url, 'other')]);
    await awayFromWindowEdge();
    for (let index = 1; index <= LIMIT; index++) {
      const response = await list(busy.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - index));
    }
    const refused = await list(busy.token);
    expectError(refused, 429, 42901, new RegExp(`may make ${LIMIT} per minute; retry in \\d+ s`));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    expect((await list(other.token)).status).toBe(200);
  });

  it('refuses a create over the limit without storing it', async () => {
    const { token } = await tokenIn(database.url, 'creator');
    await awayFromWindowEdge();
    for (let index = 0; index < LIMIT; index++) expect((await list(token)).status).toBe(200);
    const create = await request(server, '/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id": 424242, "name": "Too many"}',
    });
    expectError(create, 429, 42901);
    expect(await database.execute('SELECT "id" FROM "Plant" WHERE "id" = 424242')).toEqual([]);
  });

  it('counts unauthenticated requests against nobody: a bad token gets 401, not 429', async () => {
    for (let index = 0; index <= LIMIT; index++) {
      const response = await request(server, '/plants', { headers: { authorization: 'Bearer pst_nope' } });
      expect(response.status).toBe(401);
    }
  });
});
