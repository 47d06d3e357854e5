// The signed-in page's short-lived bearer token, checked by the same verifier as API tokens.
import { hkdfSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { issueSessionToken, SESSION_TOKEN_LIFETIME_SECONDS } from '../../lib/auth/session-token';
import { api, expectError } from '../support/api';
import { TEST_AUTH_SECRET } from '../support/server';

const list = (token: string) => api('/plants?limit=1', { token });

describe('session tokens', () => {
  it('are accepted by the API for about ten minutes', async () => {
    const issued = await issueSessionToken('usr_test');
    expect((await list(issued.token)).status).toBe(200);
    const lifetime = Date.parse(issued.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan((SESSION_TOKEN_LIFETIME_SECONDS - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual(SESSION_TOKEN_LIFETIME_SECONDS * 1000);
  });

  it('are refused once expired', async () => {
    const stale = await issueSessionToken('usr_test', Date.now() - (SESSION_TOKEN_LIFETIME_SECONDS + 60) * 1000);
    const response = await list(stale.token);
    expectError(response, 401, 40103, 'The session token has expired');
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('are refused when tampered with, signed with another key, or meant for another audience', async () => {
    const { token } = await issueSessionToken('usr_test');
    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'usr_admin' })).toString('base64url');
    expectError(await list(`${header}.${forgedPayload}.${signature}`), 401, 40102, 'The session token is not valid');

    const otherKey = new TextEncoder().encode('another-secret-0123456789abcdef0123456789');
    const jwt = (audience: string, key: Uint8Array) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('usr_test').setIssuer('plant-store').setAudience(audience).setIssuedAt().setExpirationTime('5m').sign(key);
    expectError(await list(await jwt('plants-api', otherKey)), 401, 40102, 'The session token is not valid');

    // The server's own key, but an audience other than the API's.
    const serverKey = new Uint8Array(hkdfSync('sha256', TEST_AUTH_SECRET, '', 'plant-store api session token', 32));
    expect((await list(await jwt('plants-api', serverKey))).status).toBe(200);
    expectError(await list(await jwt('another-service', serverKey)), 401, 40102, 'The session token is not valid');

    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expectError(await list(unsigned), 401, 40102);
  });
});
