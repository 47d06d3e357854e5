// Failed bearer authentications per client address (AUTH_FAILURES_PER_MINUTE), and the
// Cache-Control of API answers. The server trusts one proxy (TRUST_PROXY=true), so each test
// can speak from addresses of its own through X-Forwarded-For.
import { describe, expect } from 'vitest';
import { issueSessionToken } from '../../lib/auth/tokens/session-token';
import { generateApiToken } from '../../lib/auth/tokens/format';
import { expectError, request, type Server } from '../support/api';
import { TOKEN_CACHE_TTL_MS } from '../../lib/auth/tokens/api-tokens';
import { startOfWindow } from '../support/clock';
import { tokenIn, type TestDatabase } from '../support/database';
import { withServerEnv } from '../support/fixtures';
import type { RunningServer } from '../support/server';
import { userIn } from '../support/sign-in';

const LIMIT = 20;
const it = withServerEnv({ AUTH_FAILURES_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' });
let nextAddress = 1;

/** An account in this file's database, for the page's session token. */
async function pageAccount(database: TestDatabase) {
  const email = `page-${nextAddress}@example.com`;
  await userIn(database.url, email, 'a long page passphrase');
  const [row] = (await database.execute(`SELECT "id", "role", "sessionVersion" FROM "User" WHERE "email" = '${email}'`)) as { id: string; role: 'admin' | 'staff'; sessionVersion: number | bigint }[];
  return { id: row.id, role: row.role, sessionVersion: Number(row.sessionVersion) };
}

/** An address no other test uses. */
const freshAddress = () => `203.0.113.${nextAddress++}`;

const list = (server: Server, address: string, token: string) =>
  request(server, '/plants?limit=1', { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': `198.51.100.9, ${address}` } });

/** Windows are whole minutes: a test starts a fresh one, so it ends in the same one. */
const awayFromWindowEdge = (server: RunningServer) => startOfWindow(server.clock);

/** Sends `count` forged tokens (valid checksums, never issued) at once from `address`. */
const forge = (server: Server, address: string, count: number) => Promise.all(Array.from({ length: count }, () => list(server, address, generateApiToken())));

describe('failed authentications per address', () => {
  it(`allow ${LIMIT} a minute, looked up even in a burst no more than that, then 429 with Retry-After`, async ({ ownServer: server }) => {
    const address = freshAddress();
    await awayFromWindowEdge(server);
    const answers = await forge(server, address, LIMIT + 30);
    const refused = answers.filter((answer) => answer.status === 401);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(LIMIT);
    expect(limited).toHaveLength(30);
    for (const answer of refused) expectError(answer, 401, 40102, /not known/);
    const message = expectError(limited[0], 429, 42902, new RegExp(`${LIMIT} a minute are allowed; retry in \\d+ s`));
    const retryAfter = Number(limited[0].headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(message).toContain(`retry in ${retryAfter} s`);

    // Other addresses are not held back by this one.
    expectError(await list(server, freshAddress(), generateApiToken()), 401, 40102);
  });

  it('are refused before the database is asked, while tokens seen valid still work and are still checked', async ({ ownServer: server, ownDatabase: database }) => {
    const address = freshAddress();
    const [known, other] = await Promise.all([tokenIn(database.url, 'known'), tokenIn(database.url, 'seen elsewhere')]);
    await awayFromWindowEdge(server);
    expect((await list(server, address, known.token)).status).toBe(200);
    expect((await list(server, freshAddress(), other.token)).status).toBe(200);
    await forge(server, address, LIMIT);
    expectError(await list(server, address, generateApiToken()), 429, 42902);

    // Tokens this server has seen valid, from any address, are checked as always.
    const allowed = await list(server, address, known.token);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('ratelimit-limit')).not.toBeNull();
    expect((await list(server, address, other.token)).status).toBe(200);
    // The page's session tokens are checked without the database (their signature first), so always.
    expect((await list(server, address, (await issueSessionToken(await pageAccount(database))).token)).status).toBe(200);

    // With the tokens table gone, a lookup would be a 500: the forged tokens never get that far.
    await database.execute('ALTER TABLE "ApiToken" RENAME TO "ApiTokenAway"');
    try {
      for (const answer of await forge(server, address, 10)) expectError(answer, 429, 42902);
    } finally {
      await database.execute('ALTER TABLE "ApiTokenAway" RENAME TO "ApiToken"');
    }

    // Revocation still applies to a token seen valid: it is refused as revoked (once its check
    // is no longer cached), and from then on it is a token like any other.
    await database.execute(`UPDATE "ApiToken" SET "revokedAt" = CURRENT_TIMESTAMP WHERE "id" = '${known.id}'`);
    await server.clock.advance(TOKEN_CACHE_TTL_MS);
    expectError(await list(server, address, known.token), 401, 40104);
    expectError(await list(server, address, known.token), 429, 42902);
  });

  it('count refusals that need no database too, and answer them 429 past the limit', async ({ ownServer: server }) => {
    const address = freshAddress();
    await awayFromWindowEdge(server);
    const malformed = await Promise.all(Array.from({ length: LIMIT + 1 }, () => list(server, address, 'pst_not-a-token')));
    expect(malformed.filter((answer) => answer.status === 401)).toHaveLength(LIMIT);
    const limited = malformed.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(1);
    expectError(limited[0], 429, 42902);
  });

  it('do not hold back a token this server has not seen yet from other addresses', async ({ ownServer: server, ownDatabase: database }) => {
    const { token } = await tokenIn(database.url, 'new');
    expect((await list(server, freshAddress(), token)).status).toBe(200);
  });
});

describe('Cache-Control', () => {
  it('is no-store on every answer of an authenticated operation, success or failure', async ({ ownServer: server, ownDatabase: database }) => {
    const { token } = await tokenIn(database.url, 'cache');
    const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': freshAddress() };
    const answers = [
      await request(server, '/plants', { headers }),
      await request(server, '/plants/1', { headers }),
      await request(server, '/plants', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"id": 7, "name": "Cached?"}' }),
      await request(server, '/plants/7', { method: 'DELETE', headers }),
      await request(server, '/plants', { headers: { 'x-forwarded-for': freshAddress() } }),
      await request(server, '/plants', { method: 'PUT', headers }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 200, 204, 401, 405]);
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('is explicit on the public answers: the health check is never stored, the OpenAPI document for five minutes', async ({ ownServer: server }) => {
    expect((await request(server, '/api/health')).headers.get('cache-control')).toBe('no-store');
    expect((await request(server, '/openapi.json')).headers.get('cache-control')).toBe('public, max-age=300');
  });
});
