// Staff passwords, hashed with scrypt: memory-hard and built into Node, so there is no native
// dependency to compile. The parameters are stored with each hash so they can be raised later.
// Every hash runs in a slot of the global cap (lib/auth/passwords/admission.ts), so a burst of
// password work waits or is refused rather than filling the thread pool the whole server shares.
import 'server-only';
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { inHashingSlot } from './admission';

const PARAMETERS = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions, keyLength: number): Promise<Buffer> {
  const maxmem = 256 * options.N! * options.r!;
  return inHashingSlot(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, keyLength, { ...options, maxmem }, (error, key) =>
          error ? reject(error) : resolve(key),
        ),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMETERS, KEY_LENGTH);
  const { N, r, p } = PARAMETERS;
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: +N, r: +r, p: +p }, expected.length);
  return timingSafeEqual(actual, expected);
}

let dummyHash: Promise<string> | undefined;

/** A hash of a random password: checking an unknown email against it costs what a real check costs. */
export function dummyPasswordHash(): Promise<string> {
  if (!dummyHash) {
    dummyHash = hashPassword(randomBytes(16).toString('hex'));
    // Refused by a busy moment (or failed): the next unknown email makes it again.
    dummyHash.catch(() => (dummyHash = undefined));
  }
  return dummyHash;
}
