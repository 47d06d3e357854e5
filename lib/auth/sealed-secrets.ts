// Secrets the server must read back, kept at rest encrypted with AES-256-GCM under a key derived
// from AUTH_SECRET (HKDF-SHA256, a key of its own for each use, named by its `info`), so a copy of
// the database (a backup, a dump) holds none of them. Stored as `v1:` + base64url of the 12-byte IV,
// the ciphertext and the 16-byte tag; GCM's tag makes any change to what is stored, or a wrong key,
// fail to open rather than give a wrong secret. With AUTH_SECRET_PREVIOUS set, what was sealed under
// the AUTH_SECRET before a change opens too, until it is sealed again. Used by the webhooks' signing
// secrets (lib/webhooks/secret-cipher.ts) and the second factors' TOTP secrets
// (lib/auth/second-factor/factors.ts).
import 'server-only';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { resolveAuthSecret } from './sessions/secret';
import { settings } from '../settings';

const FORMAT = 'v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type Sealer = {
  /** The key that seals for `authSecret`. */
  keyFor(authSecret: string): Buffer;
  /** The keys a stored secret may open with: AUTH_SECRET's first (it seals), then AUTH_SECRET_PREVIOUS's, if set. */
  keys(): Buffer[];
  /** `secret`, sealed under `key` (by default AUTH_SECRET's), for the database. */
  seal(secret: string, key?: Buffer): string;
  /** The secret `stored` holds and the index in `keys` of the key that opened it (-1: kept as it is); throws when none opens it. */
  openWith(stored: string, keys: Buffer[]): { secret: string; keyIndex: number };
  /** The secret `stored` holds; throws when no configured key opens it. */
  open(stored: string): string;
  /** What to store instead of `stored` so that AUTH_SECRET alone opens it, or null when it already is so. */
  resealed(stored: string, keys?: Buffer[]): string | null;
};

/**
 * The sealer of one kind of secret: `keyInfo` names its key (HKDF's info); `isPlain` recognises a
 * secret kept as it is by a version before the encryption (it opens as itself); `unreadable` is
 * the error thrown for one that no key opens.
 */
export function sealer(keyInfo: string, options: { isPlain?: (stored: string) => boolean; unreadable: () => Error }): Sealer {
  const derived = new Map<string, Buffer>();
  const isPlain = options.isPlain ?? (() => false);

  const keyFor = (authSecret: string): Buffer => {
    let key = derived.get(authSecret);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', authSecret, '', keyInfo, 32));
      derived.set(authSecret, key);
    }
    return key;
  };

  const keys = (): Buffer[] => {
    const previous = settings().AUTH_SECRET_PREVIOUS;
    return [keyFor(resolveAuthSecret().secret), ...(previous ? [keyFor(previous)] : [])];
  };

  const seal = (secret: string, key: Buffer = keys()[0]): string => {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const sealed = Buffer.concat([iv, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}${sealed.toString('base64url')}`;
  };

  const openWith = (stored: string, candidates: Buffer[]): { secret: string; keyIndex: number } => {
    if (isPlain(stored)) return { secret: stored, keyIndex: -1 };
    if (!stored.startsWith(FORMAT)) throw options.unreadable();
    const sealed = Buffer.from(stored.slice(FORMAT.length), 'base64url');
    if (sealed.length <= IV_BYTES + TAG_BYTES) throw options.unreadable();
    const iv = sealed.subarray(0, IV_BYTES);
    const tag = sealed.subarray(sealed.length - TAG_BYTES);
    const ciphertext = sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES);
    for (const [keyIndex, key] of candidates.entries()) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAuthTag(tag);
        return { secret: Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8'), keyIndex };
      } catch {
        // The tag does not match under this key: try the next.
      }
    }
    throw options.unreadable();
  };

  return {
    keyFor,
    keys,
    seal,
    openWith,
    open: (stored) => openWith(stored, keys()).secret,
    resealed(stored, candidates = keys()) {
      const { secret, keyIndex } = openWith(stored, candidates);
      return keyIndex === 0 ? null : seal(secret, candidates[0]);
    },
  };
}
