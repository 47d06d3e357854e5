// RATE_LIMIT_PER_MINUTE: each caller's requests per one-minute window, on a server of the file's own.
import { describe, expect } from 'vitest';
import { expectError, request, type Server } from '../support/api';
import { startOfWindow } from '../support/clock';
import { tokenIn } from '../support/database';
import { withServerEnv } from '../support/fixtures';
import type { RunningServer } from '../support/server';

const LIMIT = 5;
const it = withServerEnv({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });

/** Windows are whole minutes: a burst starts a fresh one, so it ends in the same one. */
const awayFromWindowEdge = (server: RunningServer) => startOfWindow(server.clock);

const list = (server: Server, token: string) => request(server, '/plants', { headers: { authorization: `Bearer ${token}` } });

describe('rate limiting', () => {
  it(`allows ${LIMIT} requests a minute per token, then answers 429 with Retry-After; other tokens are unaffected`, async ({ ownServer: server, ownDatabase: database }) => {
    const [busy, other] = await Promise.all([tokenIn(database.url, 'busy'), tokenIn(database.url, 'other')]);
    await awayFromWindowEdge(server);
    for (let index = 1; index <= LIMIT; index++) {
      const response = await list(server, busy.token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-limit')).toBe(String(LIMIT));
      expect(response.headers.get('ratelimit-remaining')).toBe(String(LIMIT - index));
    }
    const refused = await list(server, busy.token);
    expectError(refused, 429, 42901, new RegExp(`may make ${LIMIT} per minute; retry in \\d+ s`));
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');

    expect((await list(server, other.token)).status).toBe(200);
  });

  it('refuses a create over the limit without storing it', async ({ ownServer: server, ownDatabase: database }) => {
    const { token } = await tokenIn(database.url, 'creator');
    await awayFromWindowEdge(server);
    for (let index = 0; index < LIMIT; index++) expect((await list(server, token)).status).toBe(200);
    const create = await request(server, '/plants', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"id": 424242, "name": "Too many"}',
    });
    expectError(create, 429, 42901);
    expect(await database.execute('SELECT "id" FROM "Plant" WHERE "id" = 424242')).toEqual([]);
  });

  it('counts unauthenticated requests against nobody: a bad token gets 401, not 429', async ({ ownServer: server }) => {
    for (let index = 0; index <= LIMIT; index++) {
      const response = await request(server, '/plants', { headers: { authorization: 'Bearer pst_nope' } });
      expect(response.status).toBe(401);
    }
  });
});
