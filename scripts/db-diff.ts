// npm run db:diff -- NAME: write the migration that brings prisma/migrations up to schema.prisma.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MIGRATIONS_DIR, diffSchemaAgainstMigrations } from '../lib/db/migrate';
import { UsageError, runCli } from './cli';

const USAGE = 'usage: npm run db:diff -- <name_in_snake_case>';

runCli(USAGE, async () => {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new UsageError('give the migration a snake_case name');
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'plant-store-diff-'));
  try {
    const sql = await diffSchemaAgainstMigrations({ scratchDatabaseUrl: `file:${path.join(scratch, 'scratch.db')}` });
    if (sql === null) {
      process.stdout.write('schema.prisma matches the migrations: nothing to write\n');
      return;
    }
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const directory = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, 'migration.sql'), sql);
    process.stdout.write(`wrote ${path.relative(process.cwd(), directory)}/migration.sql\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
