// The signed-in page's short-lived bearer token, checked by the same verifier as API tokens.
import { hkdfSync } from 'node:crypto';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../lib/auth/tokens/bearer';
import { issueSessionToken, SESSION_TOKEN_LIFETIME_SECONDS, type SessionAccount } from '../../lib/auth/tokens/session-token';
import { newAccount } from '../support/accounts';
import { expectError, request, sharedServer } from '../support/api';
import { TEST_AUTH_SECRET } from '../support/server';

const list = (token: string) => request(sharedServer(), '/plants?limit=1', { token });

let account: SessionAccount;
beforeAll(async () => {
  const { id, role } = await newAccount('staff', 'session-token');
  account = { id, role, sessionVersion: 0 };
});

describe('session tokens', () => {
  it('are accepted by the API for about ten minutes', async () => {
    const issued = await issueSessionToken(account);
    expect((await list(issued.token)).status).toBe(200);
    const lifetime = Date.parse(issued.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan((SESSION_TOKEN_LIFETIME_SECONDS - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual(SESSION_TOKEN_LIFETIME_SECONDS * 1000);
  });

  it('are refused once expired', async () => {
    const stale = await issueSessionToken(account, Date.now() - (SESSION_TOKEN_LIFETIME_SECONDS + 60) * 1000);
    const response = await list(stale.token);
    expectError(response, 401, 40103, 'The session token has expired');
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('are refused when tampered with, signed with another key, or meant for another audience', async () => {
    const { token } = await issueSessionToken(account);
    const [header, payload, signature] = token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), scope: 'audit:read' })).toString('base64url');
    expectError(await list(`${header}.${forgedPayload}.${signature}`), 401, 40102, 'The session token is not valid');

    const otherKey = new TextEncoder().encode('another-secret-0123456789abcdef0123456789');
    const jwt = (audience: string, key: Uint8Array, claims: Record<string, unknown> = { ver: 0, scope: 'plants:read' }) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(account.id).setIssuer('plant-store').setAudience(audience).setIssuedAt().setExpirationTime('5m').sign(key);
    expectError(await list(await jwt('plants-api', otherKey)), 401, 40102, 'The session token is not valid');

    // The server's own key, but an audience other than the API's, or no session version.
    const serverKey = new Uint8Array(hkdfSync('sha256', TEST_AUTH_SECRET, '', 'plant-store api session token', 32));
    expect((await list(await jwt('plants-api', serverKey))).status).toBe(200);
    expectError(await list(await jwt('another-service', serverKey)), 401, 40102, 'The session token is not valid');
    expectError(await list(await jwt('plants-api', serverKey, { scope: 'plants:read' })), 401, 40102, 'The session token is not valid');

    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
    expectError(await list(unsigned), 401, 40102);
  });

  it('carry no more than their role allows, whatever they claim, and end with their session version', async () => {
    const serverKey = new Uint8Array(hkdfSync('sha256', TEST_AUTH_SECRET, '', 'plant-store api session token', 32));
    const claimed = await new SignJWT({ ver: 0, scope: 'plants:read plants:write audit:read webhooks:manage' })
      .setProtectedHeader({ alg: 'HS256' }).setSubject(account.id).setIssuer('plant-store').setAudience('plants-api').setIssuedAt().setExpirationTime('5m').sign(serverKey);
    const principal = await authenticate(new Request('http://test/plants', { headers: { authorization: `Bearer ${claimed}` } }));
    expect(principal).toEqual({ kind: 'session', userId: account.id, scopes: ['plants:read', 'plants:write'] });

    const otherVersion = await issueSessionToken({ ...account, sessionVersion: 7 });
    expectError(await list(otherVersion.token), 401, 40104, /sign in again/);
    const nobody = await issueSessionToken({ ...account, id: 'usr_nobody' });
    expectError(await list(nobody.token), 401, 40104);
  });
});
