// Migrations without the network. The Prisma CLI downloads a native schema engine, which this
// project cannot rely on; the same engine ships as WebAssembly (@prisma/schema-engine-wasm) and
// talks to the database through the driver adapter the app already uses (better-sqlite3 or pg),
// which the engine's tools make, with the engine's schema and migrations. `applyMigrationsWith` does
// what `prisma migrate deploy` does: apply the engine's migrations folder in order and record them
// in `_prisma_migrations`, so either tool can take over from the other. Given the tools it works
// with, it asks no engine question: lib/db/migrate.ts picks them for a URL (engineTools()), and
// SQLite's restore passes its own (it migrates a restored copy before it takes its place).
import 'server-only';
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { processWide } from '../process-wide';
import type { EngineTools } from './stores';

// Each engine's schema and migrations (its tools' prismaFiles) are in Prisma's layout
// (prisma.config.ts points at the same), read at run time from the working directory: the build
// copies prisma/ into .next/standalone (scripts/build.mjs). Not traced by Turbopack
// (turbopackIgnore): a path it cannot work out would make it take the whole project (the tests, the
// manual) into the build and the image.

/**
 * How the migration that adds `nameFolded` is named (after its timestamp). Plants stored before
 * search existed have no `nameFolded` (see prisma/schema.prisma). A migration cannot fold them: the
 * folding is JavaScript (lib/shared/fold.ts), the one function both engines' searches rely on. So
 * every run of the migrations ends by folding what is still unfolded (the engine's tools, a thousand
 * names per transaction); on a current database it costs one query that finds none.
 */
export const NAME_FOLDING_MIGRATION = '_catalogue_search';

type EngineModule = typeof import('@prisma/schema-engine-wasm');

// The glue module holds a single wasm instance, and a process can evaluate this file more than
// once (vitest loads it per project); the loaded engine and its queue are therefore per process.
const engineState = processWide('schema-engine', (): { module?: Promise<EngineModule>; queue: Promise<unknown> } => ({
  queue: Promise.resolve(),
}));

// Node cannot import a .wasm file, so the wasm-bindgen glue is wired to the module by hand.
function loadEngineModule(): Promise<EngineModule> {
  return (engineState.module ??= (async () => {
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

// The wasm engine reports a Rust panic through this global before it traps; keep the message so
// the error says what went wrong instead of "unreachable".
const panicRegistry = globalThis as unknown as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
let lastPanic: string | undefined;
panicRegistry.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message) => void (lastPanic = message) };

function withEngine<T>(tools: EngineTools, databaseUrl: string, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  // One engine at a time: they would share the one wasm instance, and tests migrate several
  // databases at once.
  const run = engineState.queue.then(() => runEngine(tools, databaseUrl, work));
  engineState.queue = run.catch(() => {});
  return run.catch((error: unknown) => {
    if (lastPanic === undefined) throw error;
    const message = `schema engine panicked: ${lastPanic}`;
    lastPanic = undefined;
    throw new Error(message, { cause: error });
  });
}

async function runEngine<T>(tools: EngineTools, databaseUrl: string, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const schemaFile = tools.prismaFiles.schema;
  // engine.free() leaves the engine's connections open (on SQLite one keeps holding a lock on the
  // file, on PostgreSQL the pool keeps the process alive); record them so they can be closed.
  const factory = tools.migrationAdapter(databaseUrl);
  const connections: { dispose(): Promise<void> }[] = [];
  const track = <C extends { dispose(): Promise<void> }>(connection: C): C => (connections.push(connection), connection);
  const tracked: SqlMigrationAwareDriverAdapterFactory = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => track(await factory.connect()),
    connectToShadowDb: async () => track(await factory.connectToShadowDb()),
  };
  const adapter = bindMigrationAwareSqlAdapterFactory(tracked);
  const schema = await readFile(schemaFile, 'utf8');
  const engineLog = (line: string) => {
    if (process.env.PRISMA_ENGINE_DEBUG) process.stderr.write(`[schema-engine] ${line}\n`);
  };
  const engine = await SchemaEngine.new({ datamodels: [[schemaFile, schema]] }, engineLog, adapter);
  try {
    return await work(engine);
  } finally {
    engine.free();
    await Promise.all(connections.map((connection) => connection.dispose()));
  }
}

async function readMigrations(migrationsDir: string, only?: readonly string[]): Promise<MigrationList> {
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const directories = entries
    .filter((entry) => entry.isDirectory() && (!only || only.includes(entry.name)))
    .map((entry) => entry.name)
    .sort();
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

export type MigrationOptions = { databaseUrl: string; migrationsDir?: string; only?: readonly string[] };
export type DiffOptions = { scratchDatabaseUrl: string; migrationsDir?: string };

/**
 * Applies every pending migration (of those named in `only`, when given), then folds for search any
 * plant name that has no folded form yet (NAME_FOLDING_MIGRATION); returns the names of the migrations
 * applied (none when current) and how many names it folded.
 */
export async function applyMigrationsWith(tools: EngineTools, options: MigrationOptions): Promise<{ applied: string[]; folded: number }> {
  tools.beforeMigrations(options.databaseUrl);
  const migrationsDir = options.migrationsDir ?? tools.prismaFiles.migrations;
  const migrationsList = await readMigrations(migrationsDir, options.only);
  try {
    const output = await withEngine(tools, options.databaseUrl, (engine) =>
      engine.applyMigrations({ migrationsList, filters: NO_FILTER }),
    );
    // (Migrations from before the column, as a test may apply, leave nothing to fold.)
    const folded = migrationsList.migrationDirectories.some((directory) => directory.path.endsWith(NAME_FOLDING_MIGRATION))
      ? await tools.foldUnfoldedNames(options.databaseUrl)
      : 0;
    return { applied: output.appliedMigrationNames, folded };
  } catch (error) {
    throw tools.explainMigrationFailure(error);
  }
}

/**
 * The SQL that takes a database built by the existing migrations to the current schema, or null
 * when they already match; the engine is that of `scratchDatabaseUrl`, an empty database this
 * builds from the migrations. It is used instead of the engine's shadow database, whose SQLite
 * path sends whole scripts through a single-statement call and fails.
 */
export async function diffSchemaAgainstMigrationsWith(tools: EngineTools, options: DiffOptions): Promise<string | null> {
  await applyMigrationsWith(tools, { databaseUrl: options.scratchDatabaseUrl, migrationsDir: options.migrationsDir });
  const schemaFile = tools.prismaFiles.schema;
  const files = [{ path: schemaFile, content: await readFile(schemaFile, 'utf8') }];
  const result = await withEngine(tools, options.scratchDatabaseUrl, (engine) =>
    engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: path.dirname(schemaFile) },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: true,
      // Tables the migrations make by hand, which the schema cannot say (SQLite's search index and
      // counts, PostgreSQL's counts): the comparison leaves them alone.
      filters: { externalTables: [...tools.handWrittenTables], externalEnums: [] },
    }),
  );
  return result.exitCode === 2 ? (result.stdout ?? '') : null;
}
