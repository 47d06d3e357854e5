// Where the process's database engine is picked: DATABASE_URL names it (lib/db/url.ts), and engine()
// answers with everything that engine implements (the Engine of lib/db/stores.ts), its Prisma client
// included. Beside it, engineTools(url) (lib/db/engine-tools.ts) picks what is done to a database
// before or without serving it. Nothing else asks which engine it is on; code that differs per engine
// lives in lib/db/sqlite or lib/db/postgresql, reached only from the two (npm run lint checks that).
import 'server-only';
import { processWide } from '../process-wide';
import { postgresqlEngine } from './postgresql/engine';
import { sqliteEngine } from './sqlite/engine';
import type { Engine } from './stores';
import { tracedEngine } from './traced-engine';
import { tracingOn } from '../tracing/spans';
import type { DatabaseEngine } from './stores';
import { databaseEngine } from './url';

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
