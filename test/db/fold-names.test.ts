// Plants stored before search existed get their folded names, and so their place in the search
// index, when the migrations run (npm start, npm run db:migrate).
import { describe, expect, it } from 'vitest';
import { applyMigrations, NAME_FOLDING_MIGRATION } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/engine';
import { executeOn, testEngine } from '../support/database';
import { migrationsBefore } from '../support/migrations';

describe(`migrating a ${testEngine()} store from before search`, () => {
  it('folds the names already there, and they are found', async () => {
    const old = migrationsBefore(testEngine(), NAME_FOLDING_MIGRATION);
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
