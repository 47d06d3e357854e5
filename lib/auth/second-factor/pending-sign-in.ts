// The proof, between the two steps of a sign-in, that the password was right: a short-lived token
// the first step hands the sign-in page (inside next-auth's error, as every refusal's reason travels:
// lib/auth/sessions/sign-in-refusal.ts) and the second step sends back with the code. It names the
// account and its session version, and is signed with HMAC-SHA256 under a key of its own derived
// from AUTH_SECRET (never the session cookie's key, so it can never pass for a session). A change
// that ends sessions (a password reset, a disable, a reset of the factor) moves the session version
// on, and ends a pending sign-in with them.
import 'server-only';
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { resolveAuthSecret } from '../sessions/secret';
import { now as clockNow } from '../../shared/clock';

/** How long the second step may come after the first. */
export const PENDING_SIGN_IN_SECONDS = 5 * 60;
const KEY_INFO = 'plant-store pending sign-in v1';
const FORMAT = 'p1';
// A token is a few dozen characters; anything much longer is not one, and is not parsed.
export const PENDING_TOKEN_MAX_LENGTH = 512;

export type PendingSignIn = { userId: string; sessionVersion: number };

const keys = new Map<string, Buffer>();

function key(): Buffer {
  const secret = resolveAuthSecret().secret;
  let derived = keys.get(secret);
  if (!derived) {
    derived = Buffer.from(hkdfSync('sha256', secret, '', KEY_INFO, 32));
    keys.set(secret, derived);
  }
  return derived;
}

const signatureOf = (payload: string) => createHmac('sha256', key()).update(`${FORMAT}.${payload}`).digest();

/** The token of a sign-in whose password was right, for `pending`'s account. */
export function pendingSignInToken(pending: PendingSignIn, now = clockNow()): string {
  const payload = Buffer.from(JSON.stringify({ sub: pending.userId, ver: pending.sessionVersion, exp: Math.floor(now / 1000) + PENDING_SIGN_IN_SECONDS })).toString('base64url');
  return `${FORMAT}.${payload}.${signatureOf(payload).toString('base64url')}`;
}

/** The pending sign-in `token` names, or null when it is not one of ours, was altered, or has expired. */
export function readPendingSignIn(token: unknown, now = clockNow()): PendingSignIn | null {
  if (typeof token !== 'string' || token.length > PENDING_TOKEN_MAX_LENGTH) return null;
  const [format, payload, signature, ...rest] = token.split('.');
  if (format !== FORMAT || !payload || !signature || rest.length > 0) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const { sub, ver, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof sub !== 'string' || !Number.isInteger(ver) || typeof exp !== 'number') return null;
    if (Math.floor(now / 1000) >= exp) return null;
    return { userId: sub, sessionVersion: ver as number };
  } catch {
    return null;
  }
}
