// The SQLite file holds password and token hashes: it and its WAL and SHM files are readable by
// their owner only, as data/auth-secret is.
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import { applyMigrations } from '../../lib/db/migrate';
import { ensureSqliteFile } from '../../lib/db/url';
import { test } from '../support/fixtures';

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('SQLite file modes', () => {
  test('a new database, its WAL and its SHM are created 0600, in a folder only its owner can enter', async ({ makeTempDir }) => {
    const file = path.join(makeTempDir(), 'new', 'plants.db');
    await applyMigrations({ databaseUrl: `file:${file}` });
    const connection = new Database(file);
    try {
      // A write, so SQLite makes its WAL and SHM files.
      connection.exec('CREATE TABLE "ModeProbe" ("x" INTEGER); INSERT INTO "ModeProbe" VALUES (1)');
      for (const companion of [file, `${file}-wal`, `${file}-shm`]) expect(modeOf(companion).toString(8), companion).toBe('600');
    } finally {
      connection.close();
    }
    expect(modeOf(path.dirname(file)).toString(8)).toBe('700');
  });

  test('an existing database readable by others is narrowed to 0600 when it is next opened', ({ makeTempDir }) => {
    const file = path.join(makeTempDir(), 'old.db');
    for (const companion of [file, `${file}-wal`]) {
      writeFileSync(companion, '');
      chmodSync(companion, 0o644);
    }
    ensureSqliteFile(`file:${file}`);
    expect(modeOf(file).toString(8)).toBe('600');
    expect(modeOf(`${file}-wal`).toString(8)).toBe('600');
  });
});
