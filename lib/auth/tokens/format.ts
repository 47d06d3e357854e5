// API token format: `pst_` + 43 base62 characters of 32 random bytes + a 6-character CRC32
// checksum. The checksum lets a typo be refused without a database trip and lets secret
// scanners recognise a leaked token; the prefix says whose token it is.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const API_TOKEN_PREFIX = 'pst_';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
const DISPLAY_LENGTH = API_TOKEN_PREFIX.length + 8;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const WELL_FORMED = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: bigint, length: number): string {
  let text = '';
  while (value > 0n) {
    text = ALPHABET[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(length, '0');
}

function checksum(body: string): string {
  return base62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

/** A new secret token. It is shown once and never stored: keep only its hash. */
export function generateApiToken(): string {
  const body = base62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH);
  return `${API_TOKEN_PREFIX}${body}${checksum(body)}`;
}

export function looksLikeApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX);
}

/** True when the token has the right shape and its checksum matches. */
export function isWellFormedApiToken(token: string): boolean {
  if (!WELL_FORMED.test(token)) return false;
  const body = token.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + BODY_LENGTH);
  return token.endsWith(checksum(body));
}

/** SHA-256 is right here: the secret has 256 bits of entropy, so no slow hash is needed. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The part of a token safe to show in lists, so people can tell their tokens apart. */
export function displayPrefix(token: string): string {
  return token.slice(0, DISPLAY_LENGTH);
}
