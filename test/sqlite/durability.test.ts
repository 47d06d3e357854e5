// SQLITE_SYNCHRONOUS reaches both of the server's connections to the file, the API's own
// (better-sqlite3) and Prisma's: FULL (2) when unset, NORMAL (1) when asked for. SQLite reports
// `PRAGMA synchronous` per connection, so this reads it from each.
import { afterEach, describe, expect, it } from 'vitest';
import { closeDb } from '../../lib/db/engine';
import { db } from '../../lib/db/client';
import { sqliteDatabase } from '../../lib/db/sqlite/connection';
import { envAsItIs, setEnv } from '../support/settings';

const FULL = 2;
const NORMAL = 1;

async function levels(): Promise<{ api: number; prisma: number }> {
  // The API's connection reads integers as BigInt (ids are int64).
  const api = Number(sqliteDatabase().pragma('synchronous', { simple: true }));
  const [row] = await db().$queryRawUnsafe<{ synchronous: bigint | number }[]>('PRAGMA synchronous');
  return { api, prisma: Number(row.synchronous) };
}

const restoreEnv = envAsItIs('SQLITE_SYNCHRONOUS');
afterEach(async () => {
  restoreEnv();
  await closeDb();
});

describe('SQLITE_SYNCHRONOUS', () => {
  it('is FULL on both connections when unset', async () => {
    setEnv({ SQLITE_SYNCHRONOUS: undefined });
    await closeDb();
    expect(await levels()).toEqual({ api: FULL, prisma: FULL });
  });

  it('is NORMAL on both connections when set so', async () => {
    setEnv({ SQLITE_SYNCHRONOUS: 'normal' });
    await closeDb();
    expect(await levels()).toEqual({ api: NORMAL, prisma: NORMAL });
  });
});
