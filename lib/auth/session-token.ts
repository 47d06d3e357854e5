// The short-lived bearer token the signed-in page uses to call the API. It is a JWT signed with a
// key derived from AUTH_SECRET, so verifying it needs no database read. Ten minutes keeps a leaked
// token nearly worthless; the page renews it before it runs out.
import { hkdfSync } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { resolveAuthSecret } from './secret';
import { unauthorized, type CredentialVerifier } from './credentials';

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

export async function issueSessionToken(userId: string, now = Date.now()): Promise<SessionToken> {
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = issuedAt + SESSION_TOKEN_LIFETIME_SECONDS;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
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
    try {
      const { payload } = await jwtVerify(token, key(), {
        algorithms: ['HS256'],
        audience: SESSION_TOKEN_AUDIENCE,
        issuer: ISSUER,
        requiredClaims: ['sub', 'exp'],
      });
      return { kind: 'session', userId: payload.sub! };
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('expired_token', 'The session token has expired');
      throw unauthorized('invalid_token', 'The session token is not valid');
    }
  },
};
