// Webhook signing secrets at rest: sealed with a key of their own derived from AUTH_SECRET
// (lib/auth/sealed-secrets.ts: AES-256-GCM, HKDF-SHA256), so a copy of the database (a backup, a
// dump) holds no secret that signs. A secret stored as it is (`whsec_...`, by a version before this)
// still opens, as itself, until the start seals it (secrets-at-rest.ts). With AUTH_SECRET_PREVIOUS
// set, secrets sealed under the AUTH_SECRET before a change open too, until the start seals them again.
import 'server-only';
import { sealer } from '../auth/sealed-secrets';
import { SECRET_PREFIX } from './signing';

const KEY_INFO = 'plant-store webhook secrets v1';

/** A stored secret that opens with none of the keys: sealed under another AUTH_SECRET, or altered. */
export class UnreadableSecretError extends Error {
  constructor() {
    super('the signing secret cannot be decrypted with this AUTH_SECRET: set AUTH_SECRET_PREVIOUS to the one it was encrypted under, or rotate the secret');
  }
}

/** Whether `stored` is a secret kept as it is, by a version before the encryption. */
export function isPlainSecret(stored: string): boolean {
  return stored.startsWith(SECRET_PREFIX);
}

const webhookSecrets = sealer(KEY_INFO, { isPlain: isPlainSecret, unreadable: () => new UnreadableSecretError() });

/** The key that seals webhook secrets for `authSecret`. */
export const secretKey = (authSecret: string): Buffer => webhookSecrets.keyFor(authSecret);

/** The keys a stored secret may open with: AUTH_SECRET's first (it seals), then AUTH_SECRET_PREVIOUS's, if set. */
export const configuredKeys = (): Buffer[] => webhookSecrets.keys();

/** `secret`, sealed under `key` (by default AUTH_SECRET's), for the database. */
export const sealSecret = (secret: string, key?: Buffer): string => webhookSecrets.seal(secret, key);

/**
 * The secret `stored` holds, and the index in `keys` of the key that opened it (-1: it was kept as
 * it is). Throws UnreadableSecretError when no key opens it.
 */
export const openSecretWith = (stored: string, keys: Buffer[]) => webhookSecrets.openWith(stored, keys);

/** The secret `stored` holds, to sign with. Throws UnreadableSecretError when no configured key opens it. */
export const openSecret = (stored: string): string => webhookSecrets.open(stored);

/**
 * What to store instead of `stored` so that AUTH_SECRET alone opens it: a new sealed value, or null
 * when it already is so. Throws UnreadableSecretError when no key opens it.
 */
export const resealed = (stored: string, keys?: Buffer[]): string | null => webhookSecrets.resealed(stored, keys);

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
