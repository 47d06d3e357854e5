// Webhook signing secrets at rest (lib/webhooks/secret-cipher.ts): sealed under a key derived from
// AUTH_SECRET, and opened only with that key (or AUTH_SECRET_PREVIOUS's), never when altered.
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  openSecret,
  openSecretWith,
  resealed,
  sealSecret,
  secretKey,
  signingSecrets,
  UnreadableSecretError,
} from '../../lib/webhooks/secret-cipher';
import { newSigningSecret } from '../../lib/webhooks/signing';
import { envAsItIs, setEnv } from '../support/settings';

const key = secretKey('the auth secret, at least 32 characters long');
const otherKey = secretKey('another auth secret, at least 32 characters');

/** `sealed` with the byte at `index` of what follows `v1:` flipped. */
function flipped(sealed: string, index: number): string {
  const bytes = Buffer.from(sealed.slice(3), 'base64url');
  bytes[index] ^= 0x01;
  return `v1:${bytes.toString('base64url')}`;
}

describe('a sealed webhook secret', () => {
  it('is v1: and base64url of a 12-byte IV, the ciphertext and a 16-byte tag, under the HKDF key of AUTH_SECRET', () => {
    const secret = newSigningSecret();
    const sealed = sealSecret(secret, key);
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_');
    expect(sealed).not.toContain(secret.slice('whsec_'.length, 20));
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    expect(bytes.length).toBe(12 + Buffer.byteLength(secret) + 16);
    // Opened by hand with the documented derivation: HKDF-SHA256, no salt, its own info string.
    const documentedKey = Buffer.from(hkdfSync('sha256', 'the auth secret, at least 32 characters long', '', 'plant-store webhook secrets v1', 32));
    const decipher = createDecipheriv('aes-256-gcm', documentedKey, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    expect(Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString()).toBe(secret);
  });

  it('opens to the secret, and is new each time it is sealed (a random IV)', () => {
    const secret = newSigningSecret();
    const [first, second] = [sealSecret(secret, key), sealSecret(secret, key)];
    expect(first).not.toBe(second);
    expect(openSecretWith(first, [key])).toEqual({ secret, keyIndex: 0 });
    expect(openSecretWith(second, [key])).toEqual({ secret, keyIndex: 0 });
  });

  it('does not open with another key: a changed AUTH_SECRET', () => {
    const sealed = sealSecret(newSigningSecret(), key);
    expect(() => openSecretWith(sealed, [otherKey])).toThrow(UnreadableSecretError);
    expect(() => openSecretWith(sealed, [otherKey])).toThrow('the signing secret cannot be decrypted with this AUTH_SECRET');
  });

  it('does not open once any byte of it is altered: IV, ciphertext or tag', () => {
    const sealed = sealSecret(newSigningSecret(), key);
    const length = Buffer.from(sealed.slice(3), 'base64url').length;
    for (const index of [0, 11, 12, 30, length - 17, length - 16, length - 1]) {
      expect(() => openSecretWith(flipped(sealed, index), [key]), `byte ${index}`).toThrow(UnreadableSecretError);
    }
    for (const broken of [sealed.slice(0, -4), 'v1:', 'v1:AAAA', 'v2:' + sealed.slice(3), sealed.slice(3), '']) {
      expect(() => openSecretWith(broken, [key]), broken).toThrow(UnreadableSecretError);
    }
  });

  it('opens with AUTH_SECRET_PREVIOUS\'s key after AUTH_SECRET\'s, and is sealed again under AUTH_SECRET\'s', () => {
    const secret = newSigningSecret();
    const underPrevious = sealSecret(secret, otherKey);
    expect(openSecretWith(underPrevious, [key, otherKey])).toEqual({ secret, keyIndex: 1 });
    const again = resealed(underPrevious, [key, otherKey])!;
    expect(openSecretWith(again, [key])).toEqual({ secret, keyIndex: 0 });
    // Already sealed under AUTH_SECRET's: left as it is.
    expect(resealed(again, [key, otherKey])).toBeNull();
    expect(() => resealed(underPrevious, [key])).toThrow(UnreadableSecretError);
  });

  it('kept as it is by a version before the encryption (whsec_...) opens as itself, and is sealed', () => {
    const secret = newSigningSecret();
    expect(openSecretWith(secret, [key])).toEqual({ secret, keyIndex: -1 });
    const sealed = resealed(secret, [key])!;
    expect(sealed).toMatch(/^v1:/);
    expect(openSecretWith(sealed, [key]).secret).toBe(secret);
  });
});

describe('the keys of the settings', () => {
  afterEach(envAsItIs('AUTH_SECRET', 'AUTH_SECRET_PREVIOUS'));

  it('seal under AUTH_SECRET, and open under AUTH_SECRET_PREVIOUS too while it is set', () => {
    setEnv({ AUTH_SECRET: 'the auth secret, at least 32 characters long', AUTH_SECRET_PREVIOUS: undefined });
    const secret = newSigningSecret();
    const sealed = sealSecret(secret);
    expect(openSecretWith(sealed, [key]).secret).toBe(secret);
    expect(openSecret(sealed)).toBe(secret);

    // AUTH_SECRET changed: unreadable, until the one before is named.
    setEnv({ AUTH_SECRET: 'another auth secret, at least 32 characters' });
    expect(() => openSecret(sealed)).toThrow(UnreadableSecretError);
    setEnv({ AUTH_SECRET_PREVIOUS: 'the auth secret, at least 32 characters long' });
    expect(openSecret(sealed)).toBe(secret);
  });

  it('sign with the secret, then the one before while it signs; one that no longer opens is left out', () => {
    setEnv({ AUTH_SECRET: 'the auth secret, at least 32 characters long', AUTH_SECRET_PREVIOUS: undefined });
    const [current, previous] = [newSigningSecret(), newSigningSecret()];
    expect(signingSecrets({ secret: sealSecret(current), previousSecret: null })).toEqual([current]);
    expect(signingSecrets({ secret: sealSecret(current), previousSecret: sealSecret(previous) })).toEqual([current, previous]);
    expect(signingSecrets({ secret: sealSecret(current), previousSecret: sealSecret(previous, otherKey) })).toEqual([current]);
    expect(() => signingSecrets({ secret: sealSecret(current, otherKey), previousSecret: null })).toThrow(UnreadableSecretError);
  });
});
