// When each API token was last used, on SQLite (the TokenUseStore of lib/db/stores.ts): a prepared
// statement on SQLite's own connection, at once. Why not Prisma: the note is written on the API's
// hot path (at most once a minute per token), where Prisma's query interpreter and adapter cost
// about a third of a create's CPU (docs/performance-log.md, 2026-11-24: Where the time went), and
// Prisma's adapter waits for a locked file synchronously, stalling every request in the process.
import 'server-only';
import { log } from '../../log';
import type { TokenUseStore } from '../stores';
import { prepared, toSqliteTime, whenNotBusy } from './connection';

const RECORD_USE = 'UPDATE "ApiToken" SET "lastUsedAt" = ? WHERE "id" = ?';

export const sqliteTokenUse: TokenUseStore = {
  // If another process holds the file, the note is retried in the background: a minute-precise
  // note must never hold a request up.
  async recordUse(id, at) {
    whenNotBusy(() => prepared<[string, string]>(RECORD_USE).run(toSqliteTime(at), id)).catch((error: unknown) =>
      log.warn('could not record a token use', { tokenId: id, error: error instanceof Error ? error.message : String(error) }),
    );
  },
};
