// Short random identifiers for rows (tokens, deliveries, events, links). A batch import with
// webhooks makes thousands at a time, so random bytes are drawn from the system a pool at a time,
// not one call per id.
import 'server-only';
import { randomFillSync } from 'node:crypto';
import { processWide } from './process-wide';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const POOL_BYTES = 4096;

const pool = processWide('random-id-pool', () => ({ bytes: Buffer.alloc(POOL_BYTES), next: POOL_BYTES }));

function randomByte(): number {
  if (pool.next === POOL_BYTES) {
    randomFillSync(pool.bytes);
    pool.next = 0;
  }
  return pool.bytes[pool.next++];
}

/** A short random identifier such as `tok_3kTq9ZpLm2Xc8VbN`, readable in logs and on a command line. */
export function randomId(prefix: string, length = 16): string {
  let id = prefix;
  for (let drawn = 0; drawn < length; ) {
    // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps the draw uniform.
    const byte = randomByte();
    if (byte < 248) {
      id += ALPHABET[byte % 62];
      drawn++;
    }
  }
  return id;
}
