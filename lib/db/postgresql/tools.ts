// What PostgreSQL does to the database a URL names, besides serving it (the EngineTools of
// lib/db/stores.ts), reached only through engineTools() (lib/db/engine.ts): npm start's and the
// migrations' steps, each on a node-postgres connection of its own, opened and closed there (the
// start loads no pool ahead of the server's own).
import 'server-only';
import path from 'node:path';
import pg from 'pg';
import { foldForSearch } from '../../shared/fold';
import { FOLD_BATCH, STORED_SECRETS } from '../shared-sql';
import type { EngineTools, SecretRewrite, StoredSecrets } from '../stores';
import { postgresqlMigrationAdapter } from './migration-adapter';
import { createPostgresqlDatabase } from './temporary-database';

type Unfolded = { seq: number; name: string };

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const foldUnfoldedNames = (url: string) =>
  withClient(url, async (client) => {
    let folded = 0;
    for (;;) {
      const { rows } = await client.query<Unfolded>(`SELECT "seq", "name" FROM "Plant" WHERE "nameFolded" IS NULL LIMIT $1`, [FOLD_BATCH]);
      if (rows.length === 0) return folded;
      // A name changed meanwhile (by an instance of the version before) is folded again next round.
      await client.query(
        `UPDATE "Plant" p SET "nameFolded" = f."folded" FROM unnest($1::int[], $2::text[], $3::text[]) AS f("seq", "name", "folded")
         WHERE p."seq" = f."seq" AND p."name" = f."name" AND p."nameFolded" IS NULL`,
        [rows.map((row) => row.seq), rows.map((row) => row.name), rows.map((row) => foldForSearch(row.name))],
      );
      folded += rows.length;
    }
  });

// pg_dump writes only live rows: a secret rewritten leaves no copy in a backup.
const rewriteWebhookSecrets = (url: string, rewrite: SecretRewrite) =>
  withClient(url, async (client) => {
    let count = 0;
    for (const row of (await client.query<StoredSecrets>(STORED_SECRETS)).rows) {
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
  });

export const postgresqlTools: EngineTools = {
  name: 'postgresql',
  // Read at run time from the working directory (see lib/db/schema-engine.ts).
  prismaFiles: {
    schema: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/postgresql/schema.prisma'),
    migrations: path.resolve(/* turbopackIgnore: true */ process.cwd(), 'prisma/postgresql/migrations'),
  },
  // The counts of plants by day and by tag, and what keeps them (search's GIN index is in the schema).
  handWrittenTables: ['public.PlantDayCount', 'public.PlantTagCount', 'public.PlantCountChange', 'public.PlantCountStamp'],
  absoluteUrl: (url) => url,
  // Instances sharing a database must share the secret too, so none may invent its own.
  authSecretFile: () => null,
  migrationAdapter: postgresqlMigrationAdapter,
  beforeMigrations: () => {},
  explainMigrationFailure: (error) => error,
  foldUnfoldedNames,
  rewriteWebhookSecrets,
  createTemporaryDatabase: createPostgresqlDatabase,
};
