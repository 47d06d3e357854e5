// What `npm run db -- restore` guards against besides a damaged file: bringing back access that was
// ended after the backup was taken, and taking in a schema the migrations do not make (a trigger
// planted in the file would run inside the server). On SQLite, against the real production server
// and the real sign-in; on PostgreSQL, where a restore is pg_restore's, the refusal says what
// pg_restore brings back.
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { changePassword, disableAccount, endSessions, resetPassword, setAccountRole } from '../../lib/auth/accounts/changes';
import { setPasswordWithLink } from '../../lib/auth/passwords/links';
import { confirmEnrolment, removeSecondFactor, spendSecondFactorCode, startEnrolment } from '../../lib/auth/second-factor/factors';
import { setSecondFactorRequirement } from '../../lib/auth/second-factor/policy';
import { codeAt, TOTP_PERIOD_SECONDS } from '../../lib/auth/second-factor/totp';
import { createApiToken, revokeApiToken } from '../../lib/auth/tokens/api-tokens';
import { createWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret, setWebhookEndpointEnabled } from '../../lib/webhooks/endpoints';
import { browser, newAccount, signIn, type TestAccount } from '../support/accounts';
import { request } from '../support/api';
import { dbCommand as db } from '../support/cli';
import { testEngine, tokenIn, usingDatabase, type TestDatabase } from '../support/database';
import { test } from '../support/fixtures';
import type { RunningServer } from '../support/server';
import { callAction } from '../support/server-actions';

const bearer = (server: RunningServer, token: string) => request(server, '/plants?limit=1', { token });
/** What a page does with its session cookie: trade it for a page token (401 once the session has ended). */
const tradeCookie = (server: RunningServer, cookie: string) =>
  request(server, '/api/session-token', { method: 'POST', headers: { cookie, origin: server.url } });
/** What the set-password page says of a link. */
const linkCheck = async (server: RunningServer, secret: string) => (await callAction(browser(server.url), '/set-password', 'checkPasswordLinkAction', secret)).value;

/** Runs statements on an SQLite file of the test's own (a backup), as an attacker with the file would. */
function plant(file: string, sql: string): void {
  const connection = new Database(file);
  try {
    connection.exec(sql);
  } finally {
    connection.close();
  }
}

/** The names of what a failed restore may have left beside the database: none, when nothing was changed. */
const leftBeside = (database: TestDatabase) => {
  const file = database.url.slice('file:'.length);
  return readdirSync(path.dirname(file)).filter((name) => /\.(replaced-|restoring)/.test(name));
};

const GOOD_PASSWORD = 'a long enough passphrase 7';

if (testEngine() === 'postgresql') {
  describe('npm run db -- restore on PostgreSQL', () => {
    test('says that pg_restore brings back access ended after the dump, and where the steps to end it again are', async ({ makeDatabase }) => {
      const database = await makeDatabase();
      const restore = await db(database.url, 'restore', 'plants.dump');
      expect(restore.status, restore.stderr).toBe(1);
      expect(restore.stderr).toContain(
        'pg_restore brings back the tokens, accounts, roles and sessions that were ended after the dump: end them again (see docs/operations.md, Backups on PostgreSQL).',
      );
    });
  });
} else {
  describe('a restore keeps access that was ended after the backup ended', () => {
    let database: TestDatabase;
    let backup: string;
    let restoreOutput: string;
    const accounts = {} as Record<'admin' | 'demoted' | 'disabled' | 'everywhere' | 'changed' | 'linkUsed' | 'linkReplaced', TestAccount>;
    const cookies = {} as Record<'admin' | 'demoted' | 'disabled' | 'everywhere', string>;
    const tokens = {} as Record<'revoked' | 'kept' | 'ofDisabled', string>;
    const links = {} as Record<'used' | 'replaced', string>;
    const endpoints = {} as Record<'disabled' | 'deleted' | 'kept' | 'rotated', string>;
    // The rotated endpoint's signing secrets as the replaced database held them (sealed).
    let rotatedSecrets: unknown[];

    test('carries over every revocation, disable, session end, role, password, link, webhook and webhook secret ended after the backup, and says so', async ({
      ownDatabase,
      startFileServer,
      fileTempDir,
    }) => {
      database = ownDatabase;
      const server = await startFileServer({ database });
      await usingDatabase(database.url, async () => {
        accounts.admin = await newAccount('admin', 'restore-admin');
        accounts.demoted = await newAccount('admin', 'restore-demoted');
        for (const name of ['disabled', 'everywhere', 'changed', 'linkUsed', 'linkReplaced'] as const) accounts[name] = await newAccount('staff', `restore-${name}`);
        tokens.ofDisabled = (await createApiToken({ name: 'of-the-disabled', createdById: accounts.disabled.id }, OPERATOR_COMMAND)).token;
        links.used = (await resetPassword(accounts.linkUsed.id, OPERATOR_COMMAND)).secret;
        links.replaced = (await resetPassword(accounts.linkReplaced.id, OPERATOR_COMMAND)).secret;
        for (const name of ['disabled', 'deleted', 'kept', 'rotated'] as const) {
          endpoints[name] = (await createWebhookEndpoint({ url: `https://93.184.215.14/${name}`, events: ['plant.deleted'] }, OPERATOR_COMMAND)).endpoint.id;
        }
      });
      const revoked = await tokenIn(database.url, 'revoked-after-the-backup');
      tokens.revoked = revoked.token;
      tokens.kept = (await tokenIn(database.url, 'kept')).token;
      for (const name of ['admin', 'demoted', 'disabled', 'everywhere'] as const) cookies[name] = (await signIn(server.url, accounts[name])).cookie();

      backup = path.join(fileTempDir, 'before-the-ends.db');
      const taken = await db(database.url, 'backup', '--out', backup);
      expect(taken.status, taken.stderr).toBe(0);

      // After the backup, access ends in every way there is.
      await usingDatabase(database.url, async () => {
        await revokeApiToken(revoked.id, OPERATOR_COMMAND);
        await disableAccount(accounts.disabled.id, OPERATOR_COMMAND);
        await endSessions(accounts.everywhere.id, 'sign-out-everywhere', OPERATOR_COMMAND);
        await setAccountRole(accounts.demoted.id, 'staff', OPERATOR_COMMAND);
        await changePassword(accounts.changed.id, accounts.changed.password, GOOD_PASSWORD, OPERATOR_COMMAND);
        await setPasswordWithLink(links.used, GOOD_PASSWORD);
        await resetPassword(accounts.linkReplaced.id, OPERATOR_COMMAND);
        await setWebhookEndpointEnabled(endpoints.disabled, false, OPERATOR_COMMAND);
        await deleteWebhookEndpoint(endpoints.deleted, OPERATOR_COMMAND);
        await rotateWebhookSecret(endpoints.rotated, OPERATOR_COMMAND);
      });
      rotatedSecrets = await database.execute(`SELECT "secret", "previousSecret" FROM "WebhookEndpoint" WHERE "id" = '${endpoints.rotated}'`);
      expect((await bearer(server, tokens.revoked)).status).toBe(401);
      await server.stop();

      const restore = await db(database.url, 'restore', backup);
      expect(restore.status, restore.stderr).toBe(0);
      restoreOutput = restore.stdout;
      expect(restore.stdout).toContain(
        [
          'Carried over from the database it replaced, so that access ended after the backup stays ended:',
          '  API tokens revoked: 1',
          '  accounts disabled: 1',
          '  accounts whose sessions ended: 6',
          '  admins made staff: 1',
          '  passwords changed, set or reset: 2',
          '  set-password links used or replaced: 2',
          '  webhook endpoints disabled or deleted: 2',
          '  webhook signing secrets rotated: 1',
        ].join('\n'),
      );
    });

    test('on the restored store, each ended access stays ended, and the rest works as before', async ({ startOwnServer }) => {
      const server = await startOwnServer({ database });
      // API tokens: the revoked one, and the disabled account's.
      expect((await bearer(server, tokens.revoked)).status).toBe(401);
      expect((await bearer(server, tokens.ofDisabled)).status).toBe(401);
      expect((await bearer(server, tokens.kept)).status).toBe(200);

      // Sessions: the disabled account's, the one signed out everywhere, the demoted admin's.
      for (const name of ['disabled', 'everywhere', 'demoted'] as const) expect((await tradeCookie(server, cookies[name])).status, name).toBe(401);
      expect((await tradeCookie(server, cookies.admin)).status).toBe(200);

      // Sign-in: the disabled account cannot; the changed password is the new one; the demoted admin is staff.
      await expect(signIn(server.url, accounts.disabled)).rejects.toThrow(/sign-in failed/);
      await expect(signIn(server.url, accounts.changed)).rejects.toThrow(/sign-in failed/);
      await signIn(server.url, { email: accounts.changed.email, password: GOOD_PASSWORD });
      await signIn(server.url, { email: accounts.linkUsed.email, password: GOOD_PASSWORD });
      const demoted = await signIn(server.url, accounts.demoted);
      expect((await demoted.fetch('/backups')).status).toBe(403);

      // Set-password links: the one used, and the one replaced by a newer link.
      expect(await linkCheck(server, links.used)).toEqual({ usable: false, message: expect.stringMatching(/already been used/) });
      expect(await linkCheck(server, links.replaced)).toEqual({ usable: false, message: expect.stringMatching(/not valid/) });

      // Webhook endpoints: the disabled one and the deleted one send nothing.
      const webhooks = await database.execute('SELECT "id", "enabled" FROM "WebhookEndpoint" ORDER BY "id"');
      expect(Object.fromEntries((webhooks as { id: string; enabled: bigint }[]).map((row) => [row.id, row.enabled]))).toEqual({
        [endpoints.disabled]: 0n,
        [endpoints.deleted]: 0n,
        [endpoints.kept]: 1n,
        [endpoints.rotated]: 1n,
      });
      // The endpoint whose secret was rotated signs with the secrets it had then, not the backup's.
      expect(await database.execute(`SELECT "secret", "previousSecret" FROM "WebhookEndpoint" WHERE "id" = '${endpoints.rotated}'`)).toEqual(rotatedSecrets);
    });

    test('records the restore and what it carried in the audit trail', async () => {
      const records = (await database.execute(
        `SELECT "actorType", "actorName", "targetType", "targetId", "after" FROM "AuditEvent" WHERE "action" = 'backup.restored'`,
      )) as { after: string }[];
      expect(records).toEqual([{ actorType: 'system', actorName: 'cli', targetType: 'backup', targetId: path.basename(backup), after: expect.any(String) }]);
      const after = JSON.parse(records[0].after) as { carried: Record<string, string[]> };
      expect(after.carried.accountsDisabled).toEqual([accounts.disabled.id]);
      expect(after.carried.rolesLowered).toEqual([accounts.demoted.id]);
      expect(after.carried.webhooksDisabled.sort()).toEqual([endpoints.disabled, endpoints.deleted].sort());
      expect(restoreOutput).toContain('The restore and what it carried are in the audit trail (backup.restored).');
    });

    test('says so when the roles it carried leave no active admin', async ({ makeDatabase, makeTempDir }) => {
      const target = await makeDatabase();
      const first = await usingDatabase(target.url, () => newAccount('admin', 'only-admin-in-the-backup'));
      const file = path.join(makeTempDir(), 'one-admin.db');
      expect((await db(target.url, 'backup', '--out', file)).status).toBe(0);
      // After the backup, an admin it does not have takes over, and the first is made staff.
      await usingDatabase(target.url, async () => {
        await newAccount('admin', 'admin-after-the-backup');
        await setAccountRole(first.id, 'staff', OPERATOR_COMMAND);
      });
      const restore = await db(target.url, 'restore', file);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toContain('  admins made staff: 1\n');
      expect(restore.stdout).toContain('No account is an active admin now: make one with npm run user -- set-role EMAIL admin (or enable one).');
    });

    test('keeps second factors removed, reset, set up again or used after the backup', async ({ makeDatabase, makeTempDir }) => {
      const target = await makeDatabase();
      // The factors are set up with the code of one step and a code of the next is used after the
      // backup, both at moments given, not read from the clock: however long the set-up takes, the
      // later code's step is after the one the backup holds.
      const enrolled = Date.now();
      const soon = enrolled + TOTP_PERIOD_SECONDS * 1000;
      type Made = { id: string; secret: string; codes: string[] };
      const made = await usingDatabase(target.url, async () => {
        const result = {} as Record<'reset' | 'again' | 'recovered' | 'coded' | 'kept', Made>;
        for (const name of ['reset', 'again', 'recovered', 'coded', 'kept'] as const) {
          const account = await newAccount('staff', `factor-${name}`);
          const { secret } = await startEnrolment(account.id, account.email);
          result[name] = { id: account.id, secret, codes: await confirmEnrolment(account.id, codeAt(secret, enrolled), OPERATOR_COMMAND, enrolled) };
        }
        return result;
      });
      const file = path.join(makeTempDir(), 'factors.db');
      expect((await db(target.url, 'backup', '--out', file)).status).toBe(0);
      const rows = () => target.execute('SELECT "userId", "secret", "confirmedAt", "lastUsedStep" FROM "SecondFactor" ORDER BY "userId"');
      const usedCodes = () => target.execute('SELECT "userId", "hash" FROM "RecoveryCode" WHERE "usedAt" IS NOT NULL ORDER BY "userId", "hash"');
      // After the backup: a reset, a reset and a new factor, a recovery code used, a code accepted.
      await usingDatabase(target.url, async () => {
        await removeSecondFactor(made.reset.id, 'reset', OPERATOR_COMMAND);
        await removeSecondFactor(made.again.id, 'reset', OPERATOR_COMMAND);
        const { secret } = await startEnrolment(made.again.id, 'again@example.com');
        await confirmEnrolment(made.again.id, codeAt(secret, Date.now()), OPERATOR_COMMAND);
        expect(await spendSecondFactorCode(made.recovered.id, made.recovered.codes[0], OPERATOR_COMMAND)).toMatchObject({ ok: true });
        expect(await spendSecondFactorCode(made.coded.id, codeAt(made.coded.secret, soon), OPERATOR_COMMAND, soon)).toMatchObject({ ok: true });
      });
      const [factorsThen, codesThen] = [await rows(), await usedCodes()];
      expect(factorsThen.map((row) => (row as { userId: string }).userId)).not.toContain(made.reset.id);

      const restore = await db(target.url, 'restore', file);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toContain('  second factors removed, reset or used: 4\n');
      // The restored store holds the factors as the replaced database did: none for the reset one,
      // the new one, the recovery code used, the later step.
      expect(await rows()).toEqual(factorsThen);
      expect(await usedCodes()).toEqual(codesThen);
      await usingDatabase(target.url, async () => {
        expect(await spendSecondFactorCode(made.recovered.id, made.recovered.codes[0], OPERATOR_COMMAND)).toEqual({ ok: false, reason: 'wrong' });
        expect(await spendSecondFactorCode(made.coded.id, codeAt(made.coded.secret, soon), OPERATOR_COMMAND, soon)).toEqual({ ok: false, reason: 'replayed' });
        expect(await spendSecondFactorCode(made.reset.id, codeAt(made.reset.secret, soon), OPERATOR_COMMAND, soon)).toEqual({ ok: false, reason: 'no factor' });
        expect(await spendSecondFactorCode(made.kept.id, made.kept.codes[0], OPERATOR_COMMAND)).toMatchObject({ ok: true });
      });
    });

    test("leaves the store's settings as the backup has them", async ({ makeDatabase, makeTempDir }) => {
      const target = await makeDatabase();
      await usingDatabase(target.url, () => setSecondFactorRequirement('admins', OPERATOR_COMMAND));
      const file = path.join(makeTempDir(), 'settings.db');
      expect((await db(target.url, 'backup', '--out', file)).status).toBe(0);
      await usingDatabase(target.url, () => setSecondFactorRequirement('everyone', OPERATOR_COMMAND));
      const restore = await db(target.url, 'restore', file);
      expect(restore.status, restore.stderr).toBe(0);
      // Not carried (docs/operations.md, Restoring): the replaced file's audit trail says what changed.
      expect(await target.execute('SELECT "key", "value" FROM "StoreSetting"')).toEqual([{ key: 'second-factor-required', value: '"admins"' }]);
    });

    test('refuses, changing nothing, when the database it would replace cannot be read', async ({ makeDatabase }) => {
      const target = await makeDatabase();
      // A database that is not Plant Store's: nothing could be carried from it.
      await target.execute('DROP TABLE "ApiToken"');
      const refused = await db(target.url, 'restore', backup);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('could not be read to carry over the access it ended');
      expect(refused.stderr).toContain('Nothing was changed.');
      expect(leftBeside(target)).toEqual([]);
    });
  });

  describe('a restore refuses a file whose schema is not what the migrations make', () => {
    let backup: string;

    test('a trigger planted in the file (the one that makes everyone an admin), named, with nothing changed', async ({ makeDatabase, makeTempDir, fileTempDir }) => {
      const source = await makeDatabase();
      backup = path.join(fileTempDir, 'clean.db');
      expect((await db(source.url, 'backup', '--out', backup)).status).toBe(0);
      const planted = path.join(makeTempDir(), 'planted.db');
      copyFileSync(backup, planted);
      plant(planted, `CREATE TRIGGER "Plant_promote" AFTER INSERT ON "Plant" BEGIN UPDATE "User" SET "role" = 'admin'; END`);

      const target = await makeDatabase();
      await usingDatabase(target.url, () => newAccount('admin', 'target-admin'));
      const before = await target.execute('SELECT "email", "role" FROM "User"');
      const refused = await db(target.url, 'restore', planted);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`${planted} has a schema the migrations do not make: an extra trigger "Plant_promote" on "Plant". Nothing was changed.`);
      expect(await target.execute('SELECT "email", "role" FROM "User"')).toEqual(before);
      expect(leftBeside(target)).toEqual([]);
    });

    test('an extra table, view and index, and a missing trigger, each named', async ({ makeDatabase, makeTempDir }) => {
      const planted = path.join(makeTempDir(), 'planted.db');
      copyFileSync(backup, planted);
      plant(
        planted,
        `CREATE TABLE "Notes" ("text" TEXT);
         CREATE VIEW "Admins" AS SELECT "email" FROM "User" WHERE "role" = 'admin';
         CREATE INDEX "User_role_idx" ON "User" ("role");
         DROP TRIGGER "AuditEvent_never_updated";`,
      );
      const target = await makeDatabase();
      const refused = await db(target.url, 'restore', planted);
      expect(refused.status).toBe(1);
      for (const named of ['an extra table "Notes"', 'an extra view "Admins"', 'an extra index "User_role_idx" on "User"', 'no trigger "AuditEvent_never_updated" on "AuditEvent"']) {
        expect(refused.stderr).toContain(named);
      }
      expect(leftBeside(target)).toEqual([]);
    });

    test('a table the migrations make, written otherwise, named', async ({ makeDatabase, makeTempDir }) => {
      const planted = path.join(makeTempDir(), 'planted.db');
      copyFileSync(backup, planted);
      plant(planted, 'ALTER TABLE "User" ADD COLUMN "note" TEXT');
      const refused = await db((await makeDatabase()).url, 'restore', planted);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('a different table "User"');
    });

    test('reads the file with trusted_schema off: a function its schema may not call is refused, never run', async ({ makeDatabase, makeTempDir }) => {
      const planted = path.join(makeTempDir(), 'planted.db');
      copyFileSync(backup, planted);
      // rtreecheck() is not innocuous: with trusted_schema on, SQLite would run it for each row written.
      plant(planted, `CREATE TABLE "Checked" ("text" TEXT CHECK (rtreecheck('Checked') IS NOT NULL))`);
      const target = await makeDatabase();
      const refused = await db(target.url, 'restore', planted);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`${planted} calls a function a database file may not call (malformed database schema (Checked) - unsafe use of rtreecheck()). Nothing was changed.`);
      expect(leftBeside(target)).toEqual([]);
    });
  });
}
