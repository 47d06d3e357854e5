// A database of a test file's own (see ownDatabase).
import { afterAll, beforeAll } from 'vitest';
import { closeDb } from '../../lib/db/engine';
import { createTestDatabase, type TestDatabase } from './database';

/**
 * Gives this test file a database of its own, and points this process's lib/db at it: for rules
 * that depend on every account there is (the first account, the last admin), and for servers of
 * the file's own. Each test file runs in its own process, so the shared database is untouched.
 */
export function ownDatabase(): { readonly url: string; execute(sql: string): Promise<unknown[]> } {
  let database: TestDatabase | undefined;
  const shared = process.env.DATABASE_URL;
  beforeAll(async () => {
    database = await createTestDatabase();
    await closeDb();
    process.env.DATABASE_URL = database.url;
  });
  afterAll(async () => {
    await closeDb();
    process.env.DATABASE_URL = shared;
    await database?.remove();
  });
  return {
    get url() {
      return database!.url;
    },
    execute: (sql) => database!.execute(sql),
  };
}
