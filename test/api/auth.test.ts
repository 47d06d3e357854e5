import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_CACHE_TTL_MS, createApiToken, revokeApiToken } from '../../lib/auth/tokens/api-tokens';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { db } from '../../lib/db/client';
import { type ApiResponse, expectError, newToken, request, sharedServer, uniqueId } from '../support/api';
import { sharedServerClock } from '../support/clock';

const plantBody = () => `{"id": ${uniqueId()}, "name": "Auth test"}`;

function expectChallenge(response: ApiResponse, withError: boolean) {
  const challenge = response.headers.get('www-authenticate');
  if (withError) expect(challenge).toMatch(/^Bearer realm="plants", error="invalid_token", error_description="[^"]+"$/);
  else expect(challenge).toBe('Bearer realm="plants"');
}

let token: string;
beforeAll(async () => {
  token = await newToken('auth tests');
});

describe('requests without a valid bearer token get 401', () => {
  it('a missing Authorization header: challenge without an error', async () => {
    const response = await request(sharedServer(), '/plants', { method: 'POST', body: plantBody() });
    expectError(response, 401, 40101, /^Missing bearer token/);
    expectChallenge(response, false);
  });

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a scheme without token', 'Bearer'],
    ['two tokens', 'Bearer a b'],
  ])('a malformed header (%s)', async (_label, header) => {
    const response = await request(sharedServer(), '/plants', { method: 'POST', body: plantBody(), headers: { authorization: header } });
    expectError(response, 401, 40102);
    expectChallenge(response, true);
  });

  it('a token whose checksum does not match (a typo)', async () => {
    const typo = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11);
    const response = await request(sharedServer(), '/plants', { method: 'POST', token: typo, body: plantBody() });
    expectError(response, 401, 40102, /malformed/);
    expectChallenge(response, true);
  });

  it('a well-formed token that was never issued', async () => {
    const { generateApiToken } = await import('../../lib/auth/tokens/format');
    const response = await request(sharedServer(), '/plants', { method: 'POST', token: generateApiToken(), body: plantBody() });
    expectError(response, 401, 40102, /not known/);
  });

  it('something that is not a token at all', async () => {
    expectError(await request(sharedServer(), '/plants', { token: 'hunter2' }), 401, 40102);
  });

  it('applies to every operation', async () => {
    for (const [method, path] of [
      ['GET', '/plants'],
      ['GET', '/plants/1'],
      ['DELETE', '/plants/1'],
    ]) {
      expectError(await request(sharedServer(), path, { method }), 401, 40101);
    }
  });
});

describe('authentication comes before the body', () => {
  it('an unauthenticated create stores nothing', async () => {
    const id = uniqueId();
    expectError(await request(sharedServer(), '/plants', { method: 'POST', body: `{"id": ${id}, "name": "Intruder"}` }), 401, 40101);
    expectError(await request(sharedServer(), `/plants/${id}`, { token }), 404, 40401);
  });

  it('an unauthenticated oversized or non-JSON body gets 401, not 413 or 415', async () => {
    expectError(await request(sharedServer(), '/plants', { method: 'POST', body: 'x'.repeat(200_000) }), 401, 40101);
    expectError(await request(sharedServer(), '/plants', { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }), 401, 40101);
  });
});

describe('the scheme name is case-insensitive', () => {
  it.each(['bearer', 'BEARER', 'BeArEr'])('accepts "%s"', async (scheme) => {
    const response = await request(sharedServer(), '/plants', { method: 'POST', body: plantBody(), headers: { authorization: `${scheme} ${token}` } });
    expect(response.status).toBe(200);
  });
});

describe('token lifecycle', () => {
  it('a new token works, records its use, and stops working once revoked (the server caches a check for at most TOKEN_CACHE_TTL_MS)', async () => {
    const { token: secret, summary } = await createApiToken({ name: 'lifecycle' }, OPERATOR_COMMAND);
    expect(summary.lastUsedAt).toBeNull();
    expect((await request(sharedServer(), '/plants', { method: 'POST', token: secret, body: plantBody() })).status).toBe(200);

    const used = await db().apiToken.findUniqueOrThrow({ where: { id: summary.id } });
    expect(used.lastUsedAt).not.toBeNull();
    expect(used.hash).not.toContain(secret);
    expect(JSON.stringify(used)).not.toContain(secret.slice(12));

    expect(await revokeApiToken(summary.id, OPERATOR_COMMAND)).toBe(true);
    // Revoked by this process, not the server's: the server notices when its cached check lapses.
    await sharedServerClock().advance(TOKEN_CACHE_TTL_MS);
    const response = await request(sharedServer(), '/plants', { method: 'POST', token: secret, body: plantBody() });
    expectError(response, 401, 40104, 'The API token has been revoked');
    expectChallenge(response, true);
    expect(await revokeApiToken(summary.id, OPERATOR_COMMAND)).toBe(false);
  });

  it('an expired token is refused', async () => {
    const { token: secret, summary } = await createApiToken({ name: 'expiring', expiresInDays: 1 }, OPERATOR_COMMAND);
    expect((await request(sharedServer(), '/plants', { token: secret })).status).toBe(200);
    await db().apiToken.update({ where: { id: summary.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await sharedServerClock().advance(TOKEN_CACHE_TTL_MS);
    expectError(await request(sharedServer(), '/plants', { token: secret }), 401, 40103, 'The API token has expired');
  });
});
