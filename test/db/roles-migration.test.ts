// The migration that brought roles: accounts that existed before it could do everything, so they
// become admins; tokens keep what they could do (read and write plants).
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/engine';
import { executeOn, testEngine } from '../support/database';
import { migrationsBefore } from '../support/migrations';

const ROLES_MIGRATION = '_roles_and_sessions';

describe('the roles migration', () => {
  it('makes every existing account an admin, and gives existing tokens plants:read and plants:write', async () => {
    // The migrations as they were just before roles existed.
    const before = migrationsBefore(testEngine(), ROLES_MIGRATION);
    const scratch = await createTemporaryDatabase(testEngine(), 'roles');
    try {
      await applyMigrations({ databaseUrl: scratch.url, migrationsDir: before.dir });
      const database = { execute: (sql: string) => executeOn(testEngine(), scratch.url, sql) };
      await database.execute(`INSERT INTO "User" ("id", "email", "passwordHash") VALUES ('usr_old', 'old@example.com', 'scrypt$x')`);
      await database.execute(`INSERT INTO "ApiToken" ("id", "name", "prefix", "hash", "createdById") VALUES ('tok_old', 'old', 'pst_old', 'hash', 'usr_old')`);

      await applyMigrations({ databaseUrl: scratch.url });
      expect(await database.execute(`SELECT "role", "disabledAt", "passwordHash" FROM "User"`)).toEqual([{ role: 'admin', disabledAt: null, passwordHash: 'scrypt$x' }]);
      expect(await database.execute(`SELECT "scopes" FROM "ApiToken"`)).toEqual([{ scopes: 'plants:read plants:write' }]);
      // New accounts default to staff.
      await database.execute(`INSERT INTO "User" ("id", "email") VALUES ('usr_new', 'new@example.com')`);
      expect(await database.execute(`SELECT "role" FROM "User" WHERE "id" = 'usr_new'`)).toEqual([{ role: 'staff' }]);
    } finally {
      before.remove();
      await scratch.drop();
    }
  });
});
