// The migrations of the database a URL names, with its engine's tools (engineTools(), lib/db/engine.ts)
// and the WebAssembly schema engine (lib/db/schema-engine.ts): what npm start, npm run db:migrate,
// npm run db:diff and the tests call.
import 'server-only';
import { engineTools } from './engine';
import { applyMigrationsWith, diffSchemaAgainstMigrationsWith, type DiffOptions, type MigrationOptions } from './schema-engine';

export { NAME_FOLDING_MIGRATION } from './schema-engine';

/**
 * Applies every pending migration (of those named in `only`, when given), then folds for search any
 * plant name that has no folded form yet; returns the names of the migrations applied (none when
 * current) and how many names it folded.
 */
export function applyMigrations(options: MigrationOptions): Promise<{ applied: string[]; folded: number }> {
  return applyMigrationsWith(engineTools(options.databaseUrl), options);
}

/**
 * The SQL that takes a database built by the existing migrations to the current schema, or null
 * when they already match, on the engine of `scratchDatabaseUrl`, an empty database.
 */
export function diffSchemaAgainstMigrations(options: DiffOptions): Promise<string | null> {
  return diffSchemaAgainstMigrationsWith(engineTools(options.scratchDatabaseUrl), options);
}
