// Temporary SQLite databases for tests, migrated exactly as `npm start` migrates.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyMigrations } from '../../lib/db/migrate';

export async function createTestDatabase(): Promise<{ url: string; file: string; remove(): void }> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'plant-store-test-'));
  const file = path.join(directory, 'plants.db');
  const url = `file:${file}`;
  await applyMigrations({ databaseUrl: url });
  return { url, file, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
