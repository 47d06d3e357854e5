// Webhook signing secrets at rest: encrypted with AES-256-GCM under a key derived from AUTH_SECRET
// (HKDF-SHA256, a key of its own for this use), so a copy of the database (a backup, a dump) holds
// no secret that signs. Stored as `v1:` + base64url of the 12-byte IV, the ciphertext and the
// 16-byte tag; GCM's tag makes any change to what is stored, or a wrong key, fail to open rather
// than give a wrong secret. A secret stored as it is (`whsec_...`, by a version before this) still
// opens, as itself, until the start seals it (secrets-at-rest.ts). With AUTH_SECRET_PREVIOUS set,
// secrets sealed under the AUTH_SECRET before a change open too, until the start seals them again.
import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { resolveAuthSecret } from '../auth/sessions/secret';
import { settings } from '../settings';
import { SECRET_PREFIX } from './signing';

const FORMAT = 'v1:';
const KEY_INFO = 'plant-store webhook secrets v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored secret that opens with none of the keys: sealed under another AUTH_SECRET, or altered. */
export class UnreadableSecretError extends Error {
  constructor() {
    super('the signing secret cannot be decrypted with this AUTH_SECRET: set AUTH_SECRET_PREVIOUS to the one it was encrypted under, or rotate the secret');
  }
}

const derived = new Map<string, Buffer>();

/** The key that seals webhook secrets for `authSecret`. */
export function secretKey(authSecret: string): Buffer {
  let key = derived.get(authSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', authSecret, '', KEY_INFO, 32));
    derived.set(authSecret, key);
  }
  return key;
}

/** The keys a stored secret may open with: AUTH_SECRET's first (it seals), then AUTH_SECRET_PREVIOUS's, if set. */
export function configuredKeys(): Buffer[] {
  const previous = settings().AUTH_SECRET_PREVIOUS;
  return [secretKey(resolveAuthSecret().secret), ...(previous ? [secretKey(previous)] : [])];
}

/** Whether `stored` is a secret kept as it is, by a version before the encryption. */
export function isPlainSecret(stored: string): boolean {
  return stored.startsWith(SECRET_PREFIX);
}

/** `secret`, sealed under `key` (by default AUTH_SECRET's), for the database. */
export function sealSecret(secret: string, key: Buffer = configuredKeys()[0]): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([iv, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${FORMAT}${sealed.toString('base64url')}`;
}

/**
 * The secret `stored` holds, and the index in `keys` of the key that opened it (-1: it was kept as
 * it is). Throws UnreadableSecretError when no key opens it.
 */
export function openSecretWith(stored: string, keys: Buffer[]): { secret: string; keyIndex: number } {
  if (isPlainSecret(stored)) return { secret: stored, keyIndex: -1 };
  if (!stored.startsWith(FORMAT)) throw new UnreadableSecretError();
  const sealed = Buffer.from(stored.slice(FORMAT.length), 'base64url');
  if (sealed.length <= IV_BYTES + TAG_BYTES) throw new UnreadableSecretError();
  const iv = sealed.subarray(0, IV_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  const ciphertext = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
  for (const [keyIndex, key] of keys.entries()) {
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      return { secret: Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8'), keyIndex };
    } catch {
      // The tag does not match under this key: try the next.
    }
  }
  throw new UnreadableSecretError();
}

/** The secret `stored` holds, to sign with. Throws UnreadableSecretError when no configured key opens it. */
export function openSecret(stored: string): string {
  return openSecretWith(stored, configuredKeys()).secret;
}

/**
 * What to store instead of `stored` so that AUTH_SECRET alone opens it: a new sealed value, or null
 * when it already is so. Throws UnreadableSecretError when no key opens it.
 */
export function resealed(stored: string, keys: Buffer[] = configuredKeys()): string | null {
  const { secret, keyIndex } = openSecretWith(stored, keys);
  return keyIndex === 0 ? null : sealSecret(secret, keys[0]);
}

/**
 * The secrets that sign an endpoint's deliveries, newest first: its secret, and the one before while
 * that still signs (`previousSecret` is null otherwise). Throws UnreadableSecretError when its secret
 * does not open; a previous one that does not open is left out.
 */
export function signingSecrets(endpoint: { secret: string; previousSecret: string | null }): string[] {
  const keys = configuredKeys();
  const secrets = [openSecretWith(endpoint.secret, keys).secret];
  if (endpoint.previousSecret !== null) {
    try {
      secrets.push(openSecretWith(endpoint.previousSecret, keys).secret);
    } catch (error) {
      if (!(error instanceof UnreadableSecretError)) throw error;
    }
  }
  return secrets;
}
