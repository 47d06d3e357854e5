// Migrations without the network. The Prisma CLI downloads a native schema engine, which this
// project cannot rely on; the same engine ships as WebAssembly (@prisma/schema-engine-wasm) and
// talks to the database through the driver adapter the app already uses (better-sqlite3 or pg).
// `applyMigrations` does what `prisma migrate deploy` does: apply the engine's migrations folder
// in order and record them in `_prisma_migrations`, so either tool can take over from the other.
import 'server-only';
import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { MigrationList, SchemaEngine } from '@prisma/schema-engine-wasm';
import { processWide } from '../process-wide';
import { operatorCommand } from '../shared/operator-commands';
import { NAME_FOLDING_MIGRATION, foldUnfoldedNames } from './fold-names';
import { databaseEngine, ensureSqliteFile, type DatabaseEngine } from './url';

/**
 * Each engine's schema and migrations, in Prisma's layout (prisma.config.ts points at the same).
 * Read at run time from the working directory: the build copies prisma/ into .next/standalone
 * (scripts/build.mjs). Not traced by Turbopack (turbopackIgnore): a path it cannot work out would
 * make it take the whole project (the tests, the manual) into the build and the image.
 */
export const PRISMA_FILES: Record<DatabaseEngine, { schema: string; migrations: string }> = {
  sqlite: {
    schema: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/schema.prisma'),
    migrations: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/migrations'),
  },
  postgresql: {
    schema: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/postgresql/schema.prisma'),
    migrations: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/postgresql/migrations'),
  },
};

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

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type Queryable = { performIO?: (...args: unknown[]) => Promise<{ fields: { dataTypeID: number }[] }> };

/**
 * The engine reads PostgreSQL's catalogue, whose one-byte `"char"` columns (pg_class.relkind and
 * the like) @prisma/adapter-pg 7.10 refuses as an unsupported type. pg already hands them over as
 * strings, so they are relabelled as text. Only the migration engine's connections get this.
 */
function readCharAsText<Q extends object>(queryable: Q): Q {
  const target = queryable as Q & Queryable;
  const performIO = target.performIO?.bind(target);
  if (!performIO) throw new Error('@prisma/adapter-pg changed: performIO not found (see lib/db/migrate.ts)');
  target.performIO = async (...args) => {
    const result = await performIO(...args);
    for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
  return queryable;
}

type ScriptRunner = {
  executeScript(script: string): Promise<void>;
  underlyingDriver(): { query(text: string): Promise<unknown> };
  onError?(error: unknown): never;
};

/**
 * @prisma/adapter-pg 7.10 runs a migration script by splitting it at every `;`, which breaks a
 * statement that holds one (a function body between `$$`, a string). PostgreSQL takes the whole
 * script as one simple query, dollar quotes included, and runs it as one transaction, as Prisma's
 * native engine does.
 */
function runScriptsWhole<A extends object>(adapter: A): A {
  const target = adapter as A & ScriptRunner;
  if (typeof target.underlyingDriver !== 'function' || typeof target.onError !== 'function') {
    throw new Error('@prisma/adapter-pg changed: underlyingDriver/onError not found (see lib/db/migrate.ts)');
  }
  target.executeScript = async (script) => {
    try {
      await target.underlyingDriver().query(script);
    } catch (error) {
      target.onError!(error);
    }
  };
  return adapter;
}

function adapterFactory(databaseUrl: string): SqlMigrationAwareDriverAdapterFactory {
  // A running server may hold the write lock for a moment; wait for it as the app does.
  if (databaseEngine(databaseUrl) === 'sqlite') return new PrismaBetterSqlite3({ url: `file:${ensureSqliteFile(databaseUrl)}`, timeout: 5000 });
  const factory = new PrismaPg({ connectionString: databaseUrl });
  const patch = <A extends Awaited<ReturnType<PrismaPg['connect']>>>(adapter: A): A => {
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => readCharAsText(await startTransaction(isolationLevel));
    return readCharAsText(runScriptsWhole(adapter));
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await factory.connectToShadowDb()),
  };
}

// The wasm engine reports a Rust panic through this global before it traps; keep the message so
// the error says what went wrong instead of "unreachable".
const panicRegistry = globalThis as unknown as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
let lastPanic: string | undefined;
panicRegistry.PRISMA_WASM_PANIC_REGISTRY ??= { set_message: (message) => void (lastPanic = message) };

function withEngine<T>(databaseUrl: string, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  // One engine at a time: they would share the one wasm instance, and tests migrate several
  // databases at once.
  const run = engineState.queue.then(() => runEngine(databaseUrl, work));
  engineState.queue = run.catch(() => {});
  return run.catch((error: unknown) => {
    if (lastPanic === undefined) throw error;
    const message = `schema engine panicked: ${lastPanic}`;
    lastPanic = undefined;
    throw new Error(message, { cause: error });
  });
}

async function runEngine<T>(databaseUrl: string, work: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  const { SchemaEngine } = await loadEngineModule();
  const schemaFile = PRISMA_FILES[databaseEngine(databaseUrl)].schema;
  // engine.free() leaves the engine's connections open (on SQLite one keeps holding a lock on the
  // file, on PostgreSQL the pool keeps the process alive); record them so they can be closed.
  const factory = adapterFactory(databaseUrl);
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

// Tables the migrations create by hand because Prisma's schema language cannot express them, or
// because only one engine has them: SQLite's search index, an FTS5 virtual table, and the shadow
// tables FTS5 keeps beside it; SQLite's counts of plants by day and by tag, kept by triggers
// (*_plant_counts). Comparing the schema with the migrations leaves them alone. (PostgreSQL's
// search index is a GIN index, which its schema declares; see prisma/schema.prisma.)
const HAND_WRITTEN_TABLES: Record<DatabaseEngine, string[]> = {
  // (PlantSearch_docsize only before *_search_without_column_sizes.)
  sqlite: ['PlantSearch', 'PlantSearch_config', 'PlantSearch_data', 'PlantSearch_docsize', 'PlantSearch_idx', 'PlantDayCount', 'PlantTagCount'],
  postgresql: ['public.PlantDayCount', 'public.PlantTagCount', 'public.PlantCountChange', 'public.PlantCountStamp'],
};

// WAL lets readers run beside the writer, and it is a property of the file, so it is set once here.
function setJournalMode(databaseUrl: string) {
  if (databaseEngine(databaseUrl) !== 'sqlite') return;
  const connection = new Database(ensureSqliteFile(databaseUrl));
  try {
    connection.pragma('journal_mode = WAL');
  } finally {
    connection.close();
  }
}

/**
 * Applies every pending migration (of those named in `only`, when given), then folds for search any
 * plant name that has no folded form yet (lib/db/fold-names.ts); returns the names of the migrations
 * applied (none when current) and how many names it folded.
 */
export async function applyMigrations(options: {
  databaseUrl: string;
  migrationsDir?: string;
  only?: readonly string[];
}): Promise<{ applied: string[]; folded: number }> {
  setJournalMode(options.databaseUrl);
  const migrationsDir = options.migrationsDir ?? PRISMA_FILES[databaseEngine(options.databaseUrl)].migrations;
  const migrationsList = await readMigrations(migrationsDir, options.only);
  try {
    const output = await withEngine(options.databaseUrl, (engine) =>
      engine.applyMigrations({ migrationsList, filters: NO_FILTER }),
    );
    // (Migrations from before the column, as a test may apply, leave nothing to fold.)
    const folded = migrationsList.migrationDirectories.some((directory) => directory.path.endsWith(NAME_FOLDING_MIGRATION))
      ? await foldUnfoldedNames(options.databaseUrl)
      : 0;
    return { applied: output.appliedMigrationNames, folded };
  } catch (error) {
    // The engine locks an SQLite file exclusively, which it cannot while a server has it open; its
    // own message for that ("unknown variant `SocketTimeout`") explains nothing.
    if (databaseEngine(options.databaseUrl) === 'sqlite' && /SocketTimeout|database is locked/.test(String(error))) {
      throw new Error(
        `The SQLite database is in use by another process (a running server?). Stop it, then migrate; ${operatorCommand('start')} migrates before it serves.`,
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * The SQL that takes a database built by the existing migrations to the current schema, or null
 * when they already match; the engine is that of `scratchDatabaseUrl`, an empty database this
 * builds from the migrations. It is used instead of the engine's shadow database, whose SQLite
 * path sends whole scripts through a single-statement call and fails.
 */
export async function diffSchemaAgainstMigrations(options: {
  scratchDatabaseUrl: string;
  migrationsDir?: string;
}): Promise<string | null> {
  await applyMigrations({ databaseUrl: options.scratchDatabaseUrl, migrationsDir: options.migrationsDir });
  const schemaFile = PRISMA_FILES[databaseEngine(options.scratchDatabaseUrl)].schema;
  const files = [{ path: schemaFile, content: await readFile(schemaFile, 'utf8') }];
  const result = await withEngine(options.scratchDatabaseUrl, (engine) =>
    engine.diff({
      from: { tag: 'schemaDatasource', files, configDir: path.dirname(schemaFile) },
      to: { tag: 'schemaDatamodel', files },
      script: true,
      exitCode: true,
      filters: { externalTables: HAND_WRITTEN_TABLES[databaseEngine(options.scratchDatabaseUrl)], externalEnums: [] },
    }),
  );
  return result.exitCode === 2 ? (result.stdout ?? '') : null;
}
