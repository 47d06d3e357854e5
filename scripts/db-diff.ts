// npm run db:diff -- NAME: write the migration that brings each engine's migrations up to
// prisma/schema.prisma, as prisma/migrations/<stamp>_NAME (SQLite) and
// prisma/postgresql/migrations/<stamp>_NAME (PostgreSQL, computed on TEST_DATABASE_URL's server).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createTemporaryDatabase, toolsOf } from '../lib/db/engine';
import { diffSchemaAgainstMigrations } from '../lib/db/migrate';
import type { DatabaseEngine } from '../lib/db/stores';
import { UsageError, runCli } from './cli';

const USAGE = 'usage: npm run db:diff -- <name_in_snake_case>';

runCli(USAGE, async () => {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new UsageError('give the migration a snake_case name');
  // The PostgreSQL schema is written from the SQLite one; make sure it is current first.
  const generated = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { stdio: 'inherit' });
  if (generated.status !== 0) throw new Error('prisma generate failed');

  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  for (const engine of ['sqlite', 'postgresql'] as DatabaseEngine[]) {
    const scratch = await createTemporaryDatabase(engine, 'diff');
    try {
      const sql = await diffSchemaAgainstMigrations({ scratchDatabaseUrl: scratch.url });
      if (sql === null) {
        process.stdout.write(`${engine}: the schema matches the migrations, nothing to write\n`);
        continue;
      }
      const directory = path.join(toolsOf(engine).prismaFiles.migrations, `${stamp}_${name}`);
      mkdirSync(directory, { recursive: true });
      writeFileSync(path.join(directory, 'migration.sql'), sql);
      process.stdout.write(`${engine}: wrote ${path.relative(process.cwd(), directory)}/migration.sql\n`);
    } finally {
      await scratch.drop();
    }
  }
});
