// Where an engine is picked, the one place that asks which engine a database is on (through the URL
// parser, lib/db/url.ts). Two pickers, one question:
//   - engine(): the process's engine, the one DATABASE_URL names, with everything it implements to
//     serve (the Engine of lib/db/stores.ts: its stores and its Prisma client).
//   - engineTools(url): what is done to the database a URL names before or without serving it (the
//     EngineTools of lib/db/stores.ts): npm start's steps, the migrations, the operator commands.
// Code that differs per engine lives in lib/db/sqlite or lib/db/postgresql, reached only from here
// (npm run lint checks that).
//
// npm start (scripts/start.ts) uses only the tools, and must load neither the stores nor a Prisma
// client ahead of the server's own. Each engine folder's entry modules (engine.ts, tools.ts) and the
// tracing wrapper (traced-engine.ts) only make the objects they export from what they import: no
// connection is opened, nothing is started until one is used. So a bundle that uses none of what
// one exports can leave it out, with what only it imports; the build tells esbuild so
// (scripts/build.mjs), and start's bundle holds the tools alone.
import 'server-only';
import { processWide } from '../process-wide';
import { postgresqlEngine } from './postgresql/engine';
import { postgresqlTools } from './postgresql/tools';
import { sqliteEngine } from './sqlite/engine';
import { sqliteTools } from './sqlite/tools';
import type { DatabaseEngine, Engine, EngineTools, TemporaryDatabase } from './stores';
import { tracedEngine, tracingOn } from './traced-engine';
import { databaseEngine, databaseUrl } from './url';

// ----- The process's engine

// The choice is made once per process, on first use (never at build time), and again only after
// closeDb. What is kept process-wide is the choice, not the object: Next evaluates a module once per
// route bundle, and each bundle must use its own copy of the engine's code, whose errors (ApiError)
// its route wrapper recognises; the state behind them (connections, the write queue, counts) is
// process-wide already.
const chosen = processWide('database-engine', () => ({ current: undefined as DatabaseEngine | undefined }));

const ENGINES: Record<DatabaseEngine, Engine> = { sqlite: sqliteEngine, postgresql: postgresqlEngine };

/** The process's engine: its plants, deliveries, sign-in throttle, rate counter, token use and account statements. */
export function engine(): Engine {
  const picked = ENGINES[(chosen.current ??= databaseEngine())];
  // With tracing on, every store operation is a span (lib/db/traced-engine.ts); off, not even a wrapper.
  return tracingOn() ? tracedEngine(picked) : picked;
}

/** Closes the process's database connections (at shutdown, and in tests); the next use opens new ones. */
export async function closeDb(): Promise<void> {
  chosen.current = undefined;
  await Promise.all([sqliteEngine.close(), postgresqlEngine.close()]);
}

// ----- The engine's tools for a database

const TOOLS: Record<DatabaseEngine, EngineTools> = { sqlite: sqliteTools, postgresql: postgresqlTools };

/** The tools of the engine `url` names (DATABASE_URL unless given). */
export function engineTools(url: string = databaseUrl()): EngineTools {
  return TOOLS[databaseEngine(url)];
}

/** The tools of the engine named (to make a throwaway database of each, or compute each's migrations). */
export function toolsOf(engine: DatabaseEngine): EngineTools {
  return TOOLS[engine];
}

/** A throwaway database of `engine`, for tests and for computing migrations; drop() deletes it. */
export function createTemporaryDatabase(engine: DatabaseEngine, purpose = 'test'): Promise<TemporaryDatabase> {
  return TOOLS[engine].createTemporaryDatabase(purpose);
}

/** The PostgreSQL server throwaway databases are made on: TEST_DATABASE_URL, else a local one. */
export { DEFAULT_POSTGRESQL_SERVER_URL, postgresqlServerUrl } from './postgresql/temporary-database';

/** DATABASE_URL, the database this process serves or works on. */
export { databaseUrl };
