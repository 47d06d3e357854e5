// An engine's migrations as they were before a given one: what a store made before that migration
// was built with, so a test can fill such a store and then migrate it.
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toolsOf } from '../../lib/db/engine';
import type { DatabaseEngine } from '../../lib/db/stores';

/** A folder of the migrations before the first whose name ends with `suffix`; remove() deletes it. */
export function migrationsBefore(engine: DatabaseEngine, suffix: string): { dir: string; remove(): void } {
  const all = toolsOf(engine).prismaFiles.migrations;
  const names = readdirSync(all).filter((name) => /^\d{14}_/.test(name)).sort();
  const at = names.findIndex((name) => name.endsWith(suffix));
  if (at === -1) throw new Error(`no ${engine} migration ends with ${suffix}`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plant-store-migrations-before-'));
  cpSync(path.join(all, 'migration_lock.toml'), path.join(dir, 'migration_lock.toml'));
  for (const name of names.slice(0, at)) cpSync(path.join(all, name), path.join(dir, name), { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
