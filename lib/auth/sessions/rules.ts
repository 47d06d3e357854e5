// The rules a staff session cookie lives by, beyond next-auth's signature check. The cookie is a
// signed JWT that carries its account's session version and the time its sign-in happened:
// - it ends when the account's version moves on (sign-out, password change or reset, disable,
//   role change, "sign out everywhere": lib/auth/accounts/changes.ts), or the account is disabled or gone;
// - a staff member's session made with a password ends when password sign-in becomes for admins
//   only (lib/auth/oidc/password-sign-in.ts); one made through the identity provider does not;
// - it ends SESSION_MAX_AGE_SECONDS after the sign-in, whatever happens meanwhile: next-auth
//   re-issues the cookie on every GET /api/auth/session, and the re-issued token's expiry is
//   clamped to that moment, so a copied cookie cannot be kept alive by refreshing it.
import 'server-only';
import type { JWT, JWTEncodeParams } from 'next-auth/jwt';
import { encode } from 'next-auth/jwt';
import { accountState } from '../accounts/state';
import { passwordSignInAdminsOnly } from '../oidc/password-sign-in';

/** The longest a sign-in lasts; refreshing the session never extends it. */
export const SESSION_MAX_AGE_SECONDS = 12 * 60 * 60;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** What the cookie carries besides next-auth's own claims: `via`, how the sign-in was made (absent: a password). */
export type SessionClaims = { ver: number; authTime: number; via?: 'oidc' };

export function newSessionClaims(sessionVersion: number, via: 'password' | 'oidc' = 'password'): SessionClaims {
  return { ver: sessionVersion, authTime: nowSeconds(), ...(via === 'oidc' ? { via } : {}) };
}

/** Why the session in `token` no longer counts, or null while it does. */
export async function sessionEndReason(token: JWT): Promise<string | null> {
  const { sub, ver, authTime, via } = token as JWT & Partial<SessionClaims>;
  if (!sub || typeof ver !== 'number' || typeof authTime !== 'number') return 'made before sessions carried a version';
  if (nowSeconds() >= authTime + SESSION_MAX_AGE_SECONDS) return 'older than the maximum session age';
  const account = await accountState(sub);
  if (!account) return 'account deleted';
  if (account.disabled) return 'account disabled';
  if (account.sessionVersion !== ver) return 'ended (signed out, password or role changed)';
  if (via !== 'oidc' && account.role !== 'admin' && (await passwordSignInAdminsOnly())) return 'password sign-in is for admins only';
  return null;
}

/** next-auth's encoder, with the token's expiry never past its sign-in's maximum age. */
export function encodeWithinMaxAge(params: JWTEncodeParams): Promise<string> {
  const authTime = (params.token as Partial<SessionClaims> | undefined)?.authTime ?? nowSeconds();
  const remaining = authTime + SESSION_MAX_AGE_SECONDS - nowSeconds();
  return encode({ ...params, maxAge: Math.max(1, Math.min(params.maxAge ?? SESSION_MAX_AGE_SECONDS, remaining)) });
}
