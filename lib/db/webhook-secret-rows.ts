// The stored webhook secrets, read and rewritten as one pass at start (the rule of what to write is
// lib/webhooks/secrets-at-rest.ts's, passed in). Like fold-names.ts, straight through each engine's
// driver: the start loads no Prisma client ahead of the server's own.
//
// On SQLite a value rewritten leaves its old bytes in the file's free space, and a backup copies
// the file's pages as they are: after a rewrite the file is rebuilt (VACUUM) so that no earlier copy
// of a secret, as it was kept by a version before the encryption or under an AUTH_SECRET since
// replaced, is left anywhere in it. That runs once, when something was rewritten. pg_dump writes
// only live rows.
import 'server-only';
import Database from 'better-sqlite3';
import pg from 'pg';
import { databaseEngine, ensureSqliteFile } from './url';

export type StoredSecrets = { id: string; secret: string; previousSecret: string | null };
/** What to store instead, or null to leave the row as it is. */
export type SecretRewrite = (row: StoredSecrets) => { secret: string; previousSecret: string | null } | null;

const SELECT = `SELECT "id", "secret", "previousSecret" FROM "WebhookEndpoint" ORDER BY "id"`;

function rewriteOnSqlite(databaseUrl: string, rewrite: SecretRewrite): number {
  const connection = new Database(ensureSqliteFile(databaseUrl), { timeout: 5000 });
  try {
    const update = connection.prepare<[string, string | null, string, string, string | null]>(
      `UPDATE "WebhookEndpoint" SET "secret" = ?, "previousSecret" = ? WHERE "id" = ? AND "secret" = ? AND "previousSecret" IS ?`,
    );
    const rewritten = connection.transaction(() => {
      let count = 0;
      for (const row of connection.prepare<[], StoredSecrets>(SELECT).all()) {
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

async function rewriteOnPostgresql(databaseUrl: string, rewrite: SecretRewrite): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let count = 0;
    for (const row of (await client.query<StoredSecrets>(SELECT)).rows) {
      const next = rewrite(row);
      if (!next) continue;
      // Only as read: an instance serving meanwhile may have rotated it (the next start sees that).
      const { rowCount } = await client.query(
        `UPDATE "WebhookEndpoint" SET "secret" = $1, "previousSecret" = $2 WHERE "id" = $3 AND "secret" = $4 AND "previousSecret" IS NOT DISTINCT FROM $5`,
        [next.secret, next.previousSecret, row.id, row.secret, row.previousSecret],
      );
      count += rowCount ?? 0;
    }
    return count;
  } finally {
    await client.end();
  }
}

/** Rewrites each endpoint's stored secrets as `rewrite` says, each row only if unchanged since read; answers how many it rewrote. */
export async function rewriteWebhookSecrets(databaseUrl: string, rewrite: SecretRewrite): Promise<number> {
  return databaseEngine(databaseUrl) === 'sqlite' ? rewriteOnSqlite(databaseUrl, rewrite) : rewriteOnPostgresql(databaseUrl, rewrite);
}
