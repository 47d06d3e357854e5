// Recovery codes: ten one-time codes shown once at enrolment, for a lost phone. Each is 80 random
// bits in base32 (xxxx-xxxx-xxxx-xxxx), so its SHA-256 is all that is kept: no one can work a code
// back out of a copy of the database, as no one can an API token's.
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const CODE_CHARACTERS = 16;
const GROUP = 4;

/** `count` new recovery codes, as shown to the person. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(CODE_CHARACTERS);
    // 256 is a multiple of 32: each byte gives one unbiased character of five bits.
    const characters = [...bytes].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
    return characters.match(new RegExp(`.{${GROUP}}`, 'g'))!.join('-');
  });
}

/** A recovery code as a person may type it, in the form it is hashed in, or null when it cannot be one. */
export function normalizedRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]/g, '');
  return code.length === CODE_CHARACTERS && [...code].every((character) => ALPHABET.includes(character)) ? code : null;
}

/** What is stored of a recovery code. */
export function recoveryCodeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}
