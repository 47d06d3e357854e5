// Where throwaway databases are made, for tests and for computing migrations (each engine's tools
// make them: createTemporaryDatabase in lib/db/engine-tools.ts): an SQLite file in a temporary
// folder, or a fresh database on a PostgreSQL server, this one unless TEST_DATABASE_URL names another.
import 'server-only';

/** Where PostgreSQL tests and diffs run unless TEST_DATABASE_URL says otherwise. */
export const DEFAULT_POSTGRESQL_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/test';

export function postgresqlServerUrl(): string {
  return process.env.TEST_DATABASE_URL?.trim() || DEFAULT_POSTGRESQL_SERVER_URL;
}
