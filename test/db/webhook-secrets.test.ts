// Webhook signing secrets at rest, in the database itself: the start's pass (sealStoredSecrets, run
// by npm start and npm run db:migrate) seals what a version before the encryption stored as it is,
// seals again what was sealed under AUTH_SECRET_PREVIOUS, and names what no key opens. Each read
// straight from the database, and on SQLite from the file's bytes, which a backup copies as they are.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/engine';
import { sqliteFilePath } from '../../lib/db/url';
import { openSecretWith, sealSecret, secretKey } from '../../lib/webhooks/secret-cipher';
import { sealStoredSecrets } from '../../lib/webhooks/secrets-at-rest';
import { newSigningSecret } from '../../lib/webhooks/signing';
import { executeOn, testEngine } from '../support/database';
import { migrationsBefore } from '../support/migrations';
import { envAsItIs, setEnv } from '../support/settings';

const ROTATION_MIGRATION = '_webhook_secret_rotation';
afterEach(envAsItIs('AUTH_SECRET', 'AUTH_SECRET_PREVIOUS'));

type Row = { id: string; secret: string; previousSecret: string | null };

/** A database of the engine under test, migrated by `migrationsDir` (default: all), removed after `work`. */
async function withDatabase(work: (database: { url: string; execute(sql: string): Promise<unknown[]> }) => Promise<void>, migrationsDir?: string) {
  const database = await createTemporaryDatabase(testEngine(), 'secrets');
  try {
    await applyMigrations({ databaseUrl: database.url, migrationsDir });
    await work({ url: database.url, execute: (sql) => executeOn(testEngine(), database.url, sql) });
  } finally {
    await database.drop();
  }
}

const insertEndpoint = (id: string, secret: string, previousSecret?: string) =>
  previousSecret === undefined
    ? `INSERT INTO "WebhookEndpoint" ("id", "url", "secret", "events", "enabled") VALUES ('${id}', 'https://192.0.2.1/${id}', '${secret}', 'plant.created', true)`
    : `INSERT INTO "WebhookEndpoint" ("id", "url", "secret", "previousSecret", "previousSecretExpiresAt", "events", "enabled")
       VALUES ('${id}', 'https://192.0.2.1/${id}', '${secret}', '${previousSecret}', '2099-01-01T00:00:00.000+00:00', 'plant.created', true)`;

/** Every byte of an SQLite database (the file, and its write-ahead log if one is left), as text a backup would hold. */
function sqliteBytes(url: string): string {
  const file = sqliteFilePath(url);
  return [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path).toString('latin1')).join('');
}

describe(`on ${testEngine()}, the start's pass over the stored webhook secrets`, () => {
  it('seals the secrets a version before the encryption stored as they are, leaving none anywhere in the database', async () => {
    const old = migrationsBefore(testEngine(), ROTATION_MIGRATION);
    try {
      const [kept, deleted] = [newSigningSecret(), newSigningSecret()];
      await withDatabase(async (database) => {
        // As that version left it: two endpoints made, one deleted since.
        await database.execute(insertEndpoint('wh_kept', kept));
        await database.execute(insertEndpoint('wh_deleted', deleted));
        await database.execute(`DELETE FROM "WebhookEndpoint" WHERE "id" = 'wh_deleted'`);

        await applyMigrations({ databaseUrl: database.url });
        expect(await sealStoredSecrets(database.url)).toEqual({ sealed: 1, unreadable: [] });

        const rows = (await database.execute(`SELECT "id", "secret", "previousSecret" FROM "WebhookEndpoint"`)) as Row[];
        expect(rows).toEqual([{ id: 'wh_kept', secret: expect.stringMatching(/^v1:[\w-]+$/), previousSecret: null }]);
        // The same secret, under AUTH_SECRET's key alone.
        expect(openSecretWith(rows[0].secret, [secretKey(process.env.AUTH_SECRET!)]).secret).toBe(kept);
        const everywhere = await database.execute(
          `SELECT count(*) AS "n" FROM "WebhookEndpoint" WHERE "secret" LIKE '%whsec_%' OR "previousSecret" LIKE '%whsec_%' OR "url" LIKE '%whsec_%'`,
        );
        expect(Number((everywhere[0] as { n: bigint }).n)).toBe(0);
        if (testEngine() === 'sqlite') {
          // Neither secret survives in the file's free space, where SQLite leaves what it overwrote.
          const bytes = sqliteBytes(database.url);
          expect(bytes).not.toContain(kept.slice('whsec_'.length));
          expect(bytes).not.toContain(deleted.slice('whsec_'.length));
          expect(bytes).not.toContain('whsec_');
        }
        // Once sealed, nothing more to do.
        expect(await sealStoredSecrets(database.url)).toEqual({ sealed: 0, unreadable: [] });
      }, old.dir);
    } finally {
      old.remove();
    }
  });

  it('seals again under AUTH_SECRET what was sealed under AUTH_SECRET_PREVIOUS, and names what no key opens, leaving it', async () => {
    const [before, after] = ['the AUTH_SECRET before, 32 characters or more', 'the AUTH_SECRET after, 32 characters or more'];
    const [current, previous, lost] = [newSigningSecret(), newSigningSecret(), newSigningSecret()];
    await withDatabase(async (database) => {
      await database.execute(insertEndpoint('wh_changed', sealSecret(current, secretKey(before)), sealSecret(previous, secretKey(before))));
      const unknown = sealSecret(lost, secretKey('an AUTH_SECRET nobody has any more, 32 characters'));
      await database.execute(insertEndpoint('wh_unknown', unknown));
      const read = async () => (await database.execute(`SELECT "id", "secret", "previousSecret" FROM "WebhookEndpoint" ORDER BY "id"`)) as Row[];
      const stored = await read();

      // AUTH_SECRET changed, and the one before not named: nothing opens, nothing is changed.
      setEnv({ AUTH_SECRET: after, AUTH_SECRET_PREVIOUS: undefined });
      expect(await sealStoredSecrets(database.url)).toEqual({ sealed: 0, unreadable: ['wh_changed', 'wh_unknown'] });
      expect(await read()).toEqual(stored);

      setEnv({ AUTH_SECRET_PREVIOUS: before });
      expect(await sealStoredSecrets(database.url)).toEqual({ sealed: 1, unreadable: ['wh_unknown'] });
      const [changed, unchanged] = await read();
      expect(openSecretWith(changed.secret, [secretKey(after)]).secret).toBe(current);
      expect(openSecretWith(changed.previousSecret!, [secretKey(after)]).secret).toBe(previous);
      expect(unchanged).toEqual(stored[1]);
    });
  });
});
