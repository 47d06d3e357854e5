// Plants stored before search existed get their folded names, and so their place in the search
// index, when the migrations run (npm start, npm run db:migrate).
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyMigrations, PRISMA_FILES } from '../../lib/db/migrate';
import { NAME_FOLDING_MIGRATION } from '../../lib/db/fold-names';
import { createTemporaryDatabase } from '../../lib/db/temporary-database';
import { executeOn, testEngine } from '../support/database';

/** The migrations folder as it was before search: everything up to the one that added nameFolded. */
function migrationsBeforeSearch(): { dir: string; remove(): void } {
  const all = PRISMA_FILES[testEngine()].migrations;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plant-store-old-migrations-'));
  cpSync(path.join(all, 'migration_lock.toml'), path.join(dir, 'migration_lock.toml'));
  for (const name of readdirSync(all).filter((entry) => /^\d+_/.test(entry)).sort()) {
    if (name.endsWith(NAME_FOLDING_MIGRATION)) break;
    cpSync(path.join(all, name), path.join(dir, name), { recursive: true });
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

describe(`migrating a ${testEngine()} store from before search`, () => {
  it('folds the names already there, and they are found', async () => {
    const old = migrationsBeforeSearch();
    const database = await createTemporaryDatabase(testEngine(), 'fold');
    try {
      await applyMigrations({ databaseUrl: database.url, migrationsDir: old.dir });
      const execute = (sql: string) => executeOn(testEngine(), database.url, sql);
      await execute(`INSERT INTO "Plant" ("id", "name", "tag") VALUES (1, 'Gartenstraße', NULL), (2, 'МОНСТЕРА', 'aroid')`);

      const { folded } = await applyMigrations({ databaseUrl: database.url });
      expect(folded).toBe(2);
      expect(await execute(`SELECT "id", "nameFolded" FROM "Plant" ORDER BY "id"`)).toEqual([
        { id: 1n, nameFolded: 'gartenstrasse' },
        { id: 2n, nameFolded: 'монстера' },
      ]);
      // The substring index has them: FTS5's table on SQLite, the trigram index on PostgreSQL.
      const found =
        testEngine() === 'sqlite'
          ? await execute(`SELECT rowid AS "seq" FROM "PlantSearch" WHERE "PlantSearch" MATCH '"strasse"'`)
          : await execute(`SELECT "seq" FROM "Plant" WHERE "nameFolded" LIKE '%strasse%'`);
      expect(found).toHaveLength(1);
      expect((await applyMigrations({ databaseUrl: database.url })).folded).toBe(0);
    } finally {
      old.remove();
      await database.drop();
    }
  });
});
