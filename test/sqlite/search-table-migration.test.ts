// SQLite's search table was made again without its per-row token counts
// (prisma/migrations/*_search_without_column_sizes), then with two U+0001 characters after each name
// (*_search_marks_name_ends): names stored before each are still found after.
import { describe, expect, it } from 'vitest';
import { applyMigrations } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/engine';
import { executeOn } from '../support/database';
import { migrationsBefore } from '../support/migrations';

const MIGRATION = '_search_without_column_sizes';

describe('migrating a SQLite store to the search table without column sizes', () => {
  it('keeps every stored name findable, and drops the counts', async () => {
    // (It throws when no migration has that name.)
    const before = migrationsBefore('sqlite', MIGRATION);
    const database = await createTemporaryDatabase('sqlite', 'search-rebuild');
    const execute = (sql: string) => executeOn('sqlite', database.url, sql);
    const found = async (text: string) =>
      (await execute(`SELECT rowid AS "seq" FROM "PlantSearch" WHERE "PlantSearch" MATCH '"${text}"' ORDER BY rowid`)).map((row) => Number((row as { seq: bigint }).seq));
    try {
      await applyMigrations({ databaseUrl: database.url, migrationsDir: before.dir });
      await execute(`INSERT INTO "Plant" ("id", "name", "tag", "nameFolded") VALUES (1, 'Gartenstraße', NULL, 'gartenstrasse'), (2, 'Monstera', 'aroid', 'monstera')`);
      expect(await found('strasse')).toEqual([1]);

      await applyMigrations({ databaseUrl: database.url });
      expect(await found('strasse')).toEqual([1]);
      expect(await found('nster')).toEqual([2]);
      expect(await execute(`SELECT name FROM sqlite_master WHERE name = 'PlantSearch_docsize'`)).toEqual([]);
      // The triggers still keep it in step.
      await execute(`UPDATE "Plant" SET "nameFolded" = 'monstera deliciosa' WHERE "id" = 2`);
      await execute(`DELETE FROM "Plant" WHERE "id" = 1`);
      expect(await found('strasse')).toEqual([]);
      expect(await found('delici')).toEqual([2]);
    } finally {
      before.remove();
      await database.drop();
    }
  });
});

describe('migrating a SQLite store to the search table that marks where names end', () => {
  it('keeps every stored name findable, now by its last characters too, and its triggers mark what they add', async () => {
    const before = migrationsBefore('sqlite', '_search_marks_name_ends');
    const database = await createTemporaryDatabase('sqlite', 'search-marks');
    const execute = (sql: string) => executeOn('sqlite', database.url, sql);
    // `text` and the SQL after it inside the phrase (char(1) is the mark).
    const found = async (text: string, more = "''") =>
      (await execute(`SELECT rowid AS "seq" FROM "PlantSearch" WHERE "PlantSearch" MATCH '"' || '${text}' || ${more} || '"' ORDER BY rowid`)).map((row) => Number((row as { seq: bigint }).seq));
    try {
      await applyMigrations({ databaseUrl: database.url, migrationsDir: before.dir });
      await execute(`INSERT INTO "Plant" ("id", "name", "tag", "nameFolded") VALUES (1, 'Gartenstraße', NULL, 'gartenstrasse'), (2, 'Monstera', 'aroid', 'monstera')`);
      expect(await found('se', 'char(1)')).toEqual([]);

      await applyMigrations({ databaseUrl: database.url });
      expect(await found('strasse')).toEqual([1]);
      expect(await found('nster')).toEqual([2]);
      expect(await found('se', 'char(1)')).toEqual([1]);
      expect(await found('a', 'char(1, 1)')).toEqual([2]);
      await execute(`UPDATE "Plant" SET "nameFolded" = 'monstera deliciosa' WHERE "id" = 2`);
      await execute(`INSERT INTO "Plant" ("id", "name", "tag", "nameFolded") VALUES (3, 'Fig', NULL, 'fig')`);
      await execute(`DELETE FROM "Plant" WHERE "id" = 1`);
      expect(await found('se', 'char(1)')).toEqual([]);
      expect(await found('a', 'char(1, 1)')).toEqual([2]);
      expect(await found('delici')).toEqual([2]);
      expect(await found('ig', 'char(1)')).toEqual([3]);
    } finally {
      before.remove();
      await database.drop();
    }
  });
});
