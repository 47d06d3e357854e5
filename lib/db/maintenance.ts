// What `npm run db -- check` reports besides the engine's own integrity check: which migrations the
// database has against the code's, and how many rows each table holds. Written once for both
// engines, through Prisma.
import 'server-only';
import { readdir } from 'node:fs/promises';
import { db } from './client';
import { engineTools } from './engine';

/** The migrations this code ships for the engine DATABASE_URL names, oldest first. */
export async function knownMigrations(): Promise<string[]> {
  const entries = await readdir(engineTools().prismaFiles.migrations, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
}

export type MigrationStatus = {
  applied: string[];
  /** In the code, not yet applied: npm start (or npm run db:migrate) applies them. */
  pending: string[];
  /** Applied, but not in this code: the database was migrated by a newer version. */
  unknown: string[];
  /** Started and never finished (a migration that failed). */
  failed: string[];
};

export async function migrationStatus(): Promise<MigrationStatus> {
  // Prisma's own table, the same on both engines; its query API has no model for it.
  const rows = await db().$queryRaw<{ migration_name: string; finished: unknown; rolled_back: unknown }[]>`
    SELECT migration_name, finished_at AS finished, rolled_back_at AS rolled_back FROM _prisma_migrations ORDER BY migration_name`;
  const known = await knownMigrations();
  const applied = rows.filter((row) => row.finished !== null && row.rolled_back === null).map((row) => row.migration_name);
  return {
    applied,
    pending: known.filter((name) => !applied.includes(name)),
    unknown: applied.filter((name) => !known.includes(name)),
    failed: rows.filter((row) => row.finished === null && row.rolled_back === null).map((row) => row.migration_name),
  };
}

/** Rows in each of the store's tables, by what they hold. */
export async function rowCounts(): Promise<[string, number][]> {
  const client = db();
  const counts = await Promise.all([
    client.plant.count(),
    client.user.count(),
    client.apiToken.count(),
    client.auditEvent.count(),
    client.webhookEndpoint.count(),
    client.webhookEvent.count(),
    client.webhookDelivery.count(),
  ]);
  const names = ['plants', 'staff accounts', 'API tokens', 'audit records', 'webhook endpoints', 'webhook events', 'webhook deliveries'];
  return names.map((name, index) => [name, counts[index]]);
}
