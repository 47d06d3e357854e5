// What SQLite does to the database file a URL names, besides serving it (the EngineTools of
// lib/db/stores.ts), reached only through engineTools() (lib/db/engine.ts): npm start's and the
// migrations' steps, each on a better-sqlite3 connection of its own, opened and closed there.
import 'server-only';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { foldForSearch } from '../../shared/fold';
import { operatorCommand } from '../../shared/operator-commands';
import { FOLD_BATCH, STORED_SECRETS, UNFOLDED_NAMES } from '../shared-sql';
import type { EngineTools, SecretRewrite, StoredSecrets } from '../stores';
import { ensureSqliteFile, sqliteFilePath } from '../url';

// A running server may hold the write lock for a moment: wait for it as the app does.
const LOCK_WAIT_MS = 5000;

type Unfolded = { seq: number; name: string };

function foldUnfoldedNames(url: string): number {
  const connection = new Database(ensureSqliteFile(url), { timeout: LOCK_WAIT_MS });
  try {
    const unfolded = connection.prepare<[{ limit: number }], Unfolded>(UNFOLDED_NAMES);
    const fold = connection.prepare<[string, number]>(`UPDATE "Plant" SET "nameFolded" = ? WHERE "seq" = ?`);
    const foldBatch = connection.transaction((rows: Unfolded[]) => rows.forEach((row) => fold.run(foldForSearch(row.name), row.seq)));
    let folded = 0;
    for (let rows = unfolded.all({ limit: FOLD_BATCH }); rows.length > 0; rows = unfolded.all({ limit: FOLD_BATCH })) {
      foldBatch(rows);
      folded += rows.length;
    }
    return folded;
  } finally {
    connection.close();
  }
}

// A value rewritten leaves its old bytes in the file's free space, and a backup copies the file's
// pages as they are: after a rewrite the file is rebuilt (VACUUM) so that no earlier copy of a
// secret, as it was kept by a version before the encryption or under an AUTH_SECRET since replaced,
// is left anywhere in it. That runs once, when something was rewritten.
function rewriteWebhookSecrets(url: string, rewrite: SecretRewrite): number {
  const connection = new Database(ensureSqliteFile(url), { timeout: LOCK_WAIT_MS });
  try {
    const update = connection.prepare<[string, string | null, string, string, string | null]>(
      `UPDATE "WebhookEndpoint" SET "secret" = ?, "previousSecret" = ? WHERE "id" = ? AND "secret" = ? AND "previousSecret" IS ?`,
    );
    const rewritten = connection.transaction(() => {
      let count = 0;
      for (const row of connection.prepare<[], StoredSecrets>(STORED_SECRETS).all()) {
        const next = rewrite(row);
        if (next) count += update.run(next.secret, next.previousSecret, row.id, row.secret, row.previousSecret).changes;
      }
      return count;
    })();
    if (rewritten > 0) connection.exec('VACUUM');
    return rewritten;
  } finally {
    connection.close();
  }
}

export const sqliteTools: EngineTools = {
  name: 'sqlite',
  // Read at run time from the working directory (see lib/db/schema-engine.ts).
  prismaFiles: {
    schema: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/schema.prisma'),
    migrations: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/migrations'),
  },
  // The search index, an FTS5 virtual table, and the shadow tables FTS5 keeps beside it
  // (PlantSearch_docsize only before *_search_without_column_sizes); the counts of plants by day and
  // by tag, kept by triggers.
  handWrittenTables: ['PlantSearch', 'PlantSearch_config', 'PlantSearch_data', 'PlantSearch_docsize', 'PlantSearch_idx', 'PlantDayCount', 'PlantTagCount'],
  // The standalone server runs in its own folder.
  absoluteUrl: (url) => `file:${sqliteFilePath(url)}`,
  // Generated on first run and kept beside the database, so a newcomer edits no .env file.
  authSecretFile: (url) => path.join(path.dirname(ensureSqliteFile(url)), 'auth-secret'),
  migrationAdapter: (url) => new PrismaBetterSqlite3({ url: `file:${ensureSqliteFile(url)}`, timeout: LOCK_WAIT_MS }),
  // WAL lets readers run beside the writer, and it is a property of the file, so it is set once here.
  beforeMigrations(url) {
    const connection = new Database(ensureSqliteFile(url));
    try {
      connection.pragma('journal_mode = WAL');
    } finally {
      connection.close();
    }
  },
  // The schema engine locks the file exclusively, which it cannot while a server has it open; its
  // own message for that ("unknown variant `SocketTimeout`") explains nothing.
  explainMigrationFailure: (error) =>
    /SocketTimeout|database is locked/.test(String(error))
      ? new Error(`The SQLite database is in use by another process (a running server?). Stop it, then migrate; ${operatorCommand('start')} migrates before it serves.`, { cause: error })
      : error,
  foldUnfoldedNames: async (url) => foldUnfoldedNames(url),
  rewriteWebhookSecrets: async (url, rewrite) => rewriteWebhookSecrets(url, rewrite),
  async createTemporaryDatabase(purpose) {
    const directory = mkdtempSync(path.join(os.tmpdir(), `plant-store-${purpose}-`));
    return {
      engine: 'sqlite',
      url: `file:${path.join(directory, 'plants.db')}`,
      drop: async () => rmSync(directory, { recursive: true, force: true }),
    };
  },
};
