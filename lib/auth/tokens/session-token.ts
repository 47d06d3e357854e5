// The short-lived bearer token the signed-in page uses to call the API. It is a JWT signed with a
// key derived from AUTH_SECRET, carrying the account's session version and its role's scopes.
// Ten minutes keeps a leaked token nearly worthless; the page renews it before it runs out. Every
// use is also checked against the account's current state (lib/auth/accounts/state.ts, a short
// cache, not a read per request), so signing out, a disable, a role change or a password reset
// ends the token at once instead of when it expires.
import 'server-only';
import { hkdfSync } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { accountState } from '../accounts/state';
import { resolveAuthSecret } from '../sessions/secret';
import { ACCOUNT_DISABLED_MESSAGE, unauthorized, type CredentialVerifier } from './credentials';
import { ROLE_SCOPES, formatScopes, parseScopes, scopesWithin, type Role } from '../scopes';

export const SESSION_TOKEN_AUDIENCE = 'plants-api';
const ISSUER = 'plant-store';
export const SESSION_TOKEN_LIFETIME_SECONDS = 10 * 60;
const JWT_SHAPE = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

let signingKey: Uint8Array | undefined;

// A key of its own, so a session-token key can never be confused with the session cookie's.
function key(): Uint8Array {
  return (signingKey ??= new Uint8Array(
    hkdfSync('sha256', resolveAuthSecret().secret, '', 'plant-store api session token', 32),
  ));
}

export type SessionToken = { token: string; expiresAt: string };

/** The signed-in account a session token speaks for. */
export type SessionAccount = { id: string; role: Role; sessionVersion: number };

export async function issueSessionToken(account: SessionAccount, now = Date.now()): Promise<SessionToken> {
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = issuedAt + SESSION_TOKEN_LIFETIME_SECONDS;
  const token = await new SignJWT({ ver: account.sessionVersion, scope: formatScopes(ROLE_SCOPES[account.role]) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(account.id)
    .setIssuer(ISSUER)
    .setAudience(SESSION_TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key());
  return { token, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

export const sessionTokenVerifier: CredentialVerifier = {
  claims: (token) => JWT_SHAPE.test(token),
  async verify(token) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key(), {
        algorithms: ['HS256'],
        audience: SESSION_TOKEN_AUDIENCE,
        issuer: ISSUER,
        requiredClaims: ['sub', 'exp', 'ver'],
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('expired_token', 'The session token has expired');
      throw unauthorized('invalid_token', 'The session token is not valid');
    }
    const account = await accountState(payload.sub!);
    if (account?.disabled) throw unauthorized('account_disabled', ACCOUNT_DISABLED_MESSAGE);
    if (!account || account.sessionVersion !== payload.ver) {
      throw unauthorized('revoked_token', 'Your sign-in has ended (signed out, or the account changed): sign in again');
    }
    const scopes = scopesWithin(parseScopes(typeof payload.scope === 'string' ? payload.scope : ''), account.role);
    return { kind: 'session', userId: payload.sub!, scopes };
  },
};
