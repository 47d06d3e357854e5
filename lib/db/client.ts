// The process's Prisma client, on the engine DATABASE_URL names (engine() in lib/db/engine.ts):
// better-sqlite3 for a `file:` URL, node-postgres for a `postgresql:` one. Both generated clients
// come from the same models (scripts/prisma-generate.mjs), so the rest of the app sees one API, the
// Client of lib/db/prisma.ts; each engine opens its own, and on PostgreSQL the pool under it, which
// the engine's own statements share.
import 'server-only';
import { engine } from './engine';
import type { Client, Transaction } from './prisma';

export type { Client, Transaction };

/** The process's Prisma client, opened on first use (never at build time). */
export function db(): Client {
  return engine().prisma();
}

/**
 * Whether the database answers (the health check). The one raw statement outside the engines'
 * folders: `SELECT 1` means the same on both, and Prisma's query API cannot ask without reading a table.
 */
export async function checkDatabase(): Promise<void> {
  await db().$queryRaw`SELECT 1`;
}
