// Two production servers sharing one PostgreSQL database behave as one service.
import { describe, expect } from 'vitest';
import { createOn, expectError, request, uniqueId } from '../support/api';
import { seenWithin, startOfWindow } from '../support/clock';
import { tokenIn } from '../support/database';
import { test as base } from '../support/fixtures';
import { csrfOn, logLinesIn, passwordChecksIn, postAuth, refusalOf, throttledBurst, userIn } from '../support/sign-in';

const LIMIT = 50;

// Two servers on the file's database, each with the same rate limit.
const test = base.extend('servers', { scope: 'file' }, async ({ ownDatabase, startFileServer }) => {
  const env = { RATE_LIMIT_PER_MINUTE: String(LIMIT) };
  return Promise.all([startFileServer({ database: ownDatabase, env }), startFileServer({ database: ownDatabase, env })]);
});

describe('two instances on one PostgreSQL database', () => {
  test('40 racers on one id, split across both, store one plant and get one created answer', async ({ servers, ownDatabase: database }) => {
    const { token } = await tokenIn(database.url, 'racers');
    const id = uniqueId();
    const racers = Array.from({ length: 40 }, (_, index) =>
      createOn(servers[index % 2], token, `{"id": ${id}, "name": "${index % 4 < 2 ? 'Even' : 'Odd'}"}`),
    );
    const responses = await Promise.all(racers);

    const created = responses.filter((response) => response.status === 200 && !response.headers.has('idempotent-replayed'));
    expect(created).toHaveLength(1);
    const winner = created[0].text;
    for (const response of responses) {
      if (response.status === 200) expect(response.text).toBe(winner);
      else expectError(response, 409, 40901);
    }
    const stored = await database.execute(`SELECT "name" FROM "Plant" WHERE "id" = ${id}`);
    expect(stored).toHaveLength(1);
    expect(winner).toBe(`{"id":${id},"name":"${(stored[0] as { name: string }).name}"}`);
  });

  test('a token revoked through one instance is refused by the other within a second', async ({ servers, ownDatabase: database }) => {
    const { id, token } = await tokenIn(database.url, 'soon revoked');
    // Both instances have just verified (and may cache) the token.
    for (const server of servers) expect((await request(server, '/plants', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // The write any instance makes when staff revoke a token (lib/auth/tokens/api-tokens.ts), seen
    // by both within a second by their clocks (seenWithin: however slow the machine).
    await seenWithin(
      servers.map((server) => server.clock),
      1000,
      () => database.execute(`UPDATE "ApiToken" SET "revokedAt" = now() WHERE "id" = '${id}'`),
      async () => {
        for (const server of servers) expectError(await request(server, '/plants', { headers: { authorization: `Bearer ${token}` } }), 401, 40104);
      },
    );
  });

  test(`rate limits count across instances: ${LIMIT} a minute in all, not per instance`, async ({ servers, ownDatabase: database }) => {
    const { token } = await tokenIn(database.url, 'busy');
    await startOfWindow(...servers.map((server) => server.clock));
    // 30 on each: either instance alone would allow all of its 30.
    const responses = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        request(servers[index % 2], '/plants?limit=1', { headers: { authorization: `Bearer ${token}` } }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(LIMIT);
    const refused = responses.filter((response) => response.status !== 200);
    expect(refused).toHaveLength(60 - LIMIT);
    for (const response of refused) expectError(response, 429, 42901);
  });

  test('the sign-in throttle counts across instances: a burst of 100 split over both runs at most 5 password checks', async ({ servers, ownDatabase: database }) => {
    const email = `burst-${Date.now()}@example.com`;
    const password = 'a long instances passphrase';
    await userIn(database.url, email, password);
    const csrf = await Promise.all(servers.map((server) => csrfOn(server)));
    const attempt = (index: number, guess: string) => postAuth(servers[index % 2], 'callback/credentials', { email, password: guess }, { csrf: csrf[index % 2] });
    const output = () => servers.map((server) => server.output()).join('\n');

    // The burst of sign-in-limits.test.ts, split over both servers, both clocks standing still.
    const { correct } = await throttledBurst(servers, email, password, attempt);

    expect(passwordChecksIn(output(), email)).toBeLessThanOrEqual(5);
    expect(refusalOf(correct)).toMatch(/^TooManyAttempts:\d+$/);
    for (const server of servers) expect(logLinesIn(server.output(), ['sign-in throttled'], email).length).toBeGreaterThan(0);
  });
});
