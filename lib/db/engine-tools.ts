// The engine's tools for the database a URL names (the EngineTools of lib/db/stores.ts): what npm
// start, the migrations and the operator commands do to a database before or without serving it.
// Beside engine() (lib/db/engine.ts), the one other place that picks an engine, and apart from it so
// that npm start loads neither the stores nor a Prisma client ahead of the server's own. Nothing
// else asks which engine a database is on (npm run lint checks that).
import 'server-only';
import { postgresqlTools } from './postgresql/tools';
import { sqliteTools } from './sqlite/tools';
import type { DatabaseEngine, EngineTools, TemporaryDatabase } from './stores';
import { databaseEngine, databaseUrl } from './url';

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
