// The migration that brought roles: accounts that existed before it could do everything, so they
// become admins; tokens keep what they could do (read and write plants).
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMigrations, PRISMA_FILES } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/temporary-database';
import { executeOn, testEngine } from '../support/database';

const ROLES_MIGRATION = /_roles_and_sessions$/;

describe('the roles migration', () => {
  it('makes every existing account an admin, and gives existing tokens plants:read and plants:write', async () => {
    const migrations = PRISMA_FILES[testEngine()].migrations;
    const before = mkdtempSync(path.join(os.tmpdir(), 'plant-store-migrations-'));
    const scratch = await createTemporaryDatabase(testEngine(), 'roles');
    try {
      // The migrations as they were just before roles existed.
      cpSync(path.join(migrations, 'migration_lock.toml'), path.join(before, 'migration_lock.toml'));
      const names = readdirSync(migrations).filter((name) => /^\d{14}_/.test(name)).sort();
      for (const name of names.slice(0, names.findIndex((name) => ROLES_MIGRATION.test(name)))) {
        cpSync(path.join(migrations, name), path.join(before, name), { recursive: true });
      }
      await applyMigrations({ databaseUrl: scratch.url, migrationsDir: before });
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
      rmSync(before, { recursive: true, force: true });
      await scratch.drop();
    }
  });
});
