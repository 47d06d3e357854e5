// Migrations without the network. The Prisma CLI downloads a native schema engine, which this
// project cannot rely on; the same engine ships as WebAssembly (@prisma/schema-engine-wasm) and
// talks to SQLite through the driver adapter the app already uses. `applyMigrations` does what
// `prisma migrate deploy` does: apply prisma/migrations/* in order and record them in
// `_prisma_migrations`, so either tool can take over from the other.
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { ensureSqliteFile } from './url';

export const MIGRATIONS_DIR = path.resolve(process.cwd(), 'prisma/migrations');
export const SCHEMA_FILE = path.resolve(process.cwd(), 'prisma/schema.prisma');

type EngineModule = typeof import('@prisma/schema-engine-wasm');
let engineModule: Promise<EngineModule> | undefined;

// Node cannot import a .wasm file, so the wasm-bindgen glue is wired to the module by hand.
function loadEngineModule(): Promise<EngineModule> {
  return (engineModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = (await import('@prisma/schema-engine-wasm/schema_engine_bg')) as EngineModule & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue as never });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })());
}

async function withEngine<T>(databaseUrl: string, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const file = ensureSqliteFile(databaseUrl);
  // engine.free() leaves the engine's connections open, and one of them keeps holding a lock on
  // the file; record them so they can be closed when the engine is done.
  const factory = new PrismaBetterSqlite3({ url: `file:${file}` });
  const connections: { dispose(): Promise<void> }[] = [];
  const tracked = Object.assign(Object.create(factory) as typeof factory, {
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  });
  const track = <C extends { dispose(): Promise<void> }>(connection: C): C => (connections.push(connection), connection);
  const adapter = bindMigrationAwareSqlAdapterFactory(tracked);
  const schema = await readFile(SCHEMA_FILE, 'utf8');
  const engineLog = (line: string) => {
    if (process.env.PRISMA_ENGINE_DEBUG) process.stderr.write(`[schema-engine] ${line}\n`);
  };
  const engine = await SchemaEngine.new({ datamodels: [[SCHEMA_FILE, schema]] }, engineLog, adapter);
  try {
    return await work(engine);
  } finally {
    engine.free();
    await Promise.all(connections.map((connection) => connection.dispose()));
  }
}

async function readMigrations(migrationsDir: string): Promise<MigrationList> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const directories = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      directories.map(async (name) => {
        const sql = path.join(migrationsDir, name, 'migration.sql');
        const content = await readFile(sql, 'utf8').then(
          (value) => ({ tag: 'ok' as const, value }),
          (error: Error) => ({ tag: 'error' as const, value: error.message }),
        );
        return { path: name, migrationFile: { path: 'migration.sql', content } };
      }),
    ),
  };
}

const NO_FILTER = { externalTables: [], externalEnums: [] };

// WAL lets readers run beside the writer, and it is a property of the file, so it is set once here.
function setJournalMode(databaseUrl: string) {
  const connection = new Database(ensureSqliteFile(databaseUrl));
  try {
    connection.pragma('journal_mode = WAL');
  } finally {
    connection.close();
  }
}

/** Applies every pending migration; returns the names of those it applied (none when current). */
export async function applyMigrations(options: {
  databaseUrl: string;
  migrationsDir?: string;
}): Promise<{ applied: string[] }> {
  setJournalMode(options.databaseUrl);
  const migrationsList = await readMigrations(options.migrationsDir ?? MIGRATIONS_DIR);
  const output = await withEngine(options.databaseUrl, (engine) =>
    engine.applyMigrations({ migrationsList, filters: NO_FILTER }),
  );
  return { applied: output.appliedMigrationNames };
}

/**
 * The SQL that takes a database built by the existing migrations to the current schema.prisma,
 * or null when they already match. It builds that database from scratch at `scratchDatabaseUrl`
 * instead of using the engine's shadow database, whose SQLite path sends whole scripts through a
 * single-statement call and fails.
 */
export async function diffSchemaAgainstMigrations(options: {
  scratchDatabaseUrl: string;
  migrationsDir?: string;
}): Promise<string | null> {
  await applyMigrations({ databaseUrl: options.scratchDatabaseUrl, migrationsDir: options.migrationsDir });
  const schema = await readFile(SCHEMA_FILE, 'utf8');
  const files = [{ path: SCHEMA_FILE, content: schema }];
  const result = await withEngine(options.scratchDatabaseUrl, (engine) =>
    engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: path.dirname(SCHEMA_FILE) },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: true,
      filters: NO_FILTER,
    }),
  );
  return result.exitCode === 2 ? (result.stdout ?? '') : null;
}
