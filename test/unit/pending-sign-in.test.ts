// The token between the two steps of a sign-in (lib/auth/second-factor/pending-sign-in.ts): signed
// under a key of its own derived from AUTH_SECRET, it names the account and session version, and
// is refused altered, expired, or signed under another secret.
import { afterEach, describe, expect, it } from 'vitest';
import { PENDING_SIGN_IN_SECONDS, pendingSignInToken, readPendingSignIn } from '../../lib/auth/second-factor/pending-sign-in';
import { envAsItIs, setEnv } from '../support/settings';

const restore = envAsItIs('AUTH_SECRET');
afterEach(restore);

describe('a pending sign-in', () => {
  it('is read back while it lasts, and not after', () => {
    setEnv({ AUTH_SECRET: 'a pending sign-in secret, at least 32 bytes long' });
    const now = 1_800_000_000_000;
    const token = pendingSignInToken({ userId: 'usr_1', sessionVersion: 3 }, now);
    expect(readPendingSignIn(token, now)).toEqual({ userId: 'usr_1', sessionVersion: 3 });
    expect(readPendingSignIn(token, now + (PENDING_SIGN_IN_SECONDS - 1) * 1000)).not.toBeNull();
    expect(readPendingSignIn(token, now + PENDING_SIGN_IN_SECONDS * 1000)).toBeNull();
  });

  it('is refused altered, truncated, or not a token at all', () => {
    setEnv({ AUTH_SECRET: 'a pending sign-in secret, at least 32 bytes long' });
    const now = 1_800_000_000_000;
    const token = pendingSignInToken({ userId: 'usr_1', sessionVersion: 3 }, now);
    const [format, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ sub: 'usr_admin', ver: 3, exp: now / 1000 + 60 })).toString('base64url');
    for (const bad of [
      `${format}.${forged}.${signature}`,
      `${format}.${payload}.${signature.slice(0, -2)}`,
      `${format}.${payload}`,
      `${token}.x`,
      `p2.${payload}.${signature}`,
      '',
      'x'.repeat(10_000),
      undefined,
      42,
      { sub: 'usr_1' },
    ]) {
      expect(readPendingSignIn(bad, now)).toBeNull();
    }
  });

  it('is refused under another AUTH_SECRET', () => {
    setEnv({ AUTH_SECRET: 'a pending sign-in secret, at least 32 bytes long' });
    const token = pendingSignInToken({ userId: 'usr_1', sessionVersion: 0 });
    setEnv({ AUTH_SECRET: 'another pending sign-in secret, 32 bytes or more' });
    expect(readPendingSignIn(token)).toBeNull();
  });
});
