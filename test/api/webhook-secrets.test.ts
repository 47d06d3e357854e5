// Webhook signing secrets, end to end on each engine: rotated from the page without a gap for the
// receiver (both signatures for the grace period, on the server's clock), never in the database as
// they are, and still signing across an upgrade from a version that stored them so and across a
// change of AUTH_SECRET. Each delivery is checked as a receiver holding one secret would check it:
// the standardwebhooks package's own verify.
import { existsSync, readFileSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { describe, expect } from 'vitest';
import { listAuditRecords } from '../../lib/audit/service';
import { applyMigrations } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/engine';
import { sqliteFilePath } from '../../lib/db/url';
import { openSecretWith, secretKey } from '../../lib/webhooks/secret-cipher';
import { newSigningSecret } from '../../lib/webhooks/signing';
import { createOn, uniqueId } from '../support/api';
import { newAccount, signIn } from '../support/accounts';
import { executeOn, testEngine, tokenIn, usingDatabase, type TestDatabase } from '../support/database';
import { test as base } from '../support/fixtures';
import { migrationsBefore } from '../support/migrations';
import { startReceiver, verifiesWith, type Delivery, type Receiver } from '../support/receiver';
import { TEST_AUTH_SECRET } from '../support/server';
import { callAction } from '../support/server-actions';
import { deliveriesIn, endpointIn } from '../support/webhooks';

const HOUR = 3_600_000;
const LOCAL = { WEBHOOK_ALLOW_PRIVATE_URLS: '1' };

const test = base.extend('receiver', async ({}, { onCleanup }) => {
  const receiver = await startReceiver();
  onCleanup(() => receiver.close());
  return receiver;
});

/** A plant created through the API, and its plant.created as the receiver got it. */
async function deliveredCreate(server: { url: string }, token: string, receiver: Receiver): Promise<Delivery> {
  const id = uniqueId();
  expect((await createOn(server, token, `{"id": ${id}, "name": "Signed"}`)).status).toBe(200);
  const [delivery] = await receiver.waitFor((d) => d.event.type === 'plant.created' && d.event.data.id === id);
  return delivery;
}

/** The signatures a delivery carries, each as `v1,<base64>`. */
const signaturesOf = (delivery: Delivery) => delivery.signature.split(' ');

/** The signature `secret` makes of `delivery`, as its header would carry it. */
const signatureBy = (secret: string, delivery: Delivery) => new Webhook(secret).sign(delivery.id, new Date(Number(delivery.timestamp) * 1000), delivery.body);

/** The stored secrets, straight from the database. */
async function storedSecrets(database: Pick<TestDatabase, 'execute'>) {
  return (await database.execute(`SELECT "id", "secret", "previousSecret" FROM "WebhookEndpoint" ORDER BY "id"`)) as { id: string; secret: string; previousSecret: string | null }[];
}

/** Whether any stored value holds a secret as it is: the endpoints, and every audit record. */
async function plainSecretsIn(database: Pick<TestDatabase, 'execute'>): Promise<number> {
  const [endpoints] = await database.execute(`SELECT count(*) AS "n" FROM "WebhookEndpoint" WHERE "secret" LIKE '%whsec%' OR "previousSecret" LIKE '%whsec%'`);
  const [records] = await database.execute(`SELECT count(*) AS "n" FROM "AuditEvent" WHERE "after" LIKE '%whsec%' OR "before" LIKE '%whsec%'`);
  return Number((endpoints as { n: bigint }).n) + Number((records as { n: bigint }).n);
}

describe('rotating an endpoint\'s secret from the /webhooks page', () => {
  test('signs each delivery with the new secret and the one before, new first, for WEBHOOK_SECRET_GRACE by the server\'s clock; the newest two only', async ({
    startOwnServer,
    receiver,
  }) => {
    let first = { id: '', secret: '' };
    const server = await startOwnServer({
      env: { ...LOCAL, WEBHOOK_SECRET_GRACE: '2h' },
      prepare: async (database) => (first = await endpointIn(database.url, receiver.url)),
    });
    const { database } = server;
    receiver.setSecret(first.secret);
    const { token } = await tokenIn(database.url, 'rotation');
    const admin = await usingDatabase(database.url, () => newAccount('admin', 'rotation'));
    const asAdmin = await signIn(server.url, admin);
    const rotate = async () => {
      const sent = Date.now();
      const answer = (await callAction(asAdmin, '/webhooks', 'rotateSecretAction', first.id)).value as { ok: true; secret: string; previousSecretSignsUntil: string };
      expect(answer).toEqual({ ok: true, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), previousSecretSignsUntil: expect.any(String) });
      // Two hours (WEBHOOK_SECRET_GRACE) from the rotation.
      const until = Date.parse(answer.previousSecretSignsUntil);
      expect(until).toBeGreaterThanOrEqual(sent + 2 * HOUR - 1000);
      expect(until).toBeLessThanOrEqual(Date.now() + 2 * HOUR + 1000);
      return answer.secret;
    };

    const before = await deliveredCreate(server, token, receiver);
    expect(signaturesOf(before)).toEqual([signatureBy(first.secret, before)]);

    // The receiver still holds the first secret: deliveries verify with it, and with the new one.
    const second = await rotate();
    expect(second).not.toBe(first.secret);
    const during = await deliveredCreate(server, token, receiver);
    expect(signaturesOf(during)).toEqual([signatureBy(second, during), signatureBy(first.secret, during)]);
    expect(verifiesWith(during, first.secret)).toBe(true);
    expect(verifiesWith(during, second)).toBe(true);

    // Again within the grace period: the newest two sign, the first no longer.
    const third = await rotate();
    receiver.setSecret(third);
    const again = await deliveredCreate(server, token, receiver);
    expect(signaturesOf(again)).toEqual([signatureBy(third, again), signatureBy(second, again)]);
    expect([verifiesWith(again, third), verifiesWith(again, second), verifiesWith(again, first.secret)]).toEqual([true, true, false]);

    // Past the grace period by the server's clock: the newest alone.
    await server.clock.advance(2 * HOUR + 60_000);
    const after = await deliveredCreate(server, token, receiver);
    expect(signaturesOf(after)).toEqual([signatureBy(third, after)]);
    expect([verifiesWith(after, third), verifiesWith(after, second)]).toEqual([true, false]);
    expect(receiver.rejected).toEqual([]);

    // Stored sealed, under AUTH_SECRET's key; no secret as it is in the endpoints or the audit trail.
    const [stored] = await storedSecrets(database);
    expect(stored.secret).toMatch(/^v1:/);
    expect(openSecretWith(stored.secret, [secretKey(TEST_AUTH_SECRET)]).secret).toBe(third);
    expect(openSecretWith(stored.previousSecret!, [secretKey(TEST_AUTH_SECRET)]).secret).toBe(second);
    expect(await plainSecretsIn(database)).toBe(0);
    const { records } = await usingDatabase(database.url, () => listAuditRecords({ target: `webhook:${first.id}`, limit: 10 }));
    const byAdmin = { type: 'staff', id: admin.id, name: admin.email };
    expect(records.map((record) => [record.action, record.actor, record.after]).reverse()).toEqual([
      ['webhook.created', { type: 'system', name: 'cli' }, expect.anything()],
      ['webhook.secret_rotated', byAdmin, { previousSecretSignsUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }],
      ['webhook.secret_rotated', byAdmin, { previousSecretSignsUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }],
    ]);
    expect(await callAction(asAdmin, '/webhooks', 'rotateSecretAction', 'wh_nosuchendpoint').then((answer) => answer.value)).toEqual({
      ok: false,
      message: 'No webhook endpoint has id wh_nosuchendpoint',
    });
  });
});

describe('a store from the version that kept secrets as they are', () => {
  test('npm start encrypts them, leaving none as it is in the database, and each still signs', async ({ startOwnServer, receiver }) => {
    const old = migrationsBefore(testEngine(), '_webhook_secret_rotation');
    const made = await createTemporaryDatabase(testEngine(), 'upgrade');
    const database: TestDatabase = { engine: testEngine(), url: made.url, execute: (sql) => executeOn(testEngine(), made.url, sql), remove: made.drop };
    // Removed once the server has stopped; by this test if it never started.
    let handedOver = false;
    try {
      await applyMigrations({ databaseUrl: database.url, migrationsDir: old.dir });
      const secret = newSigningSecret();
      await database.execute(
        `INSERT INTO "WebhookEndpoint" ("id", "url", "secret", "events", "enabled") VALUES ('wh_fromthepast', '${receiver.url}', '${secret}', 'plant.created', true)`,
      );
      receiver.setSecret(secret);

      handedOver = true;
      const server = await startOwnServer({ database, removeDatabaseAfter: true, entry: 'start', env: LOCAL });
      expect(server.output()).toContain('[start] encrypted the signing secrets of 1 webhook endpoint under AUTH_SECRET');
      const { token } = await tokenIn(database.url, 'upgrade');
      const delivered = await deliveredCreate(server, token, receiver);
      expect(signaturesOf(delivered)).toEqual([signatureBy(secret, delivered)]);
      expect(receiver.rejected).toEqual([]);

      const [stored] = await storedSecrets(database);
      expect(openSecretWith(stored.secret, [secretKey(TEST_AUTH_SECRET)]).secret).toBe(secret);
      expect(await plainSecretsIn(database)).toBe(0);
      if (database.engine === 'sqlite') {
        // A backup is the file's pages as they are: not a byte of the secret anywhere in them.
        await server.stop();
        const file = sqliteFilePath(database.url);
        const bytes = [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path).toString('latin1')).join('');
        expect(bytes).not.toContain(secret.slice('whsec_'.length));
        expect(bytes).not.toContain('whsec_');
      }
    } finally {
      old.remove();
      if (!handedOver) await database.remove();
    }
  });
});

describe('a changed AUTH_SECRET', () => {
  test('fails each attempt, saying why and sending nothing, until AUTH_SECRET_PREVIOUS names the one before; then the start seals the secrets under the new one', async ({
    startOwnServer,
    receiver,
  }) => {
    const changed = 'the AUTH_SECRET after the change, 32 characters or more';
    let endpoint = { id: '', secret: '' };
    const server = await startOwnServer({
      // Sealed under the tests' AUTH_SECRET; served under another. A retry an hour on.
      env: { ...LOCAL, AUTH_SECRET: changed, WEBHOOK_RETRY_SCHEDULE: '1h' },
      prepare: async (database) => (endpoint = await endpointIn(database.url, receiver.url)),
    });
    const { database } = server;
    receiver.setSecret(endpoint.secret);
    const { token } = await tokenIn(database.url, 'changed');
    const id = uniqueId();
    expect((await createOn(server, token, `{"id": ${id}, "name": "Unsigned"}`)).status).toBe(200);
    await expect.poll(async () => (await deliveriesIn(database)).map((row) => [row.status, Number(row.attempts), row.lastError])).toEqual([
      ['pending', 1, 'the signing secret cannot be decrypted with this AUTH_SECRET: set AUTH_SECRET_PREVIOUS to the one it was encrypted under, or rotate the secret'],
    ]);
    expect(receiver.attempts).toEqual([]);
    await server.stop();

    const restarted = await startOwnServer({ database, entry: 'start', env: { ...LOCAL, AUTH_SECRET: changed, AUTH_SECRET_PREVIOUS: TEST_AUTH_SECRET } });
    expect(restarted.output()).toContain('[start] encrypted the signing secrets of 1 webhook endpoint under AUTH_SECRET');
    const [stored] = await storedSecrets(database);
    expect(openSecretWith(stored.secret, [secretKey(changed)]).secret).toBe(endpoint.secret);
    // The retry, due by the server's clock, is signed with the secret the receiver holds.
    await restarted.clock.advance(2 * HOUR);
    const [delivered] = await receiver.waitFor((d) => d.event.data.id === id);
    expect(signaturesOf(delivered)).toEqual([signatureBy(endpoint.secret, delivered)]);
    expect(receiver.rejected).toEqual([]);
  });

  test('without AUTH_SECRET_PREVIOUS, the start names the endpoints whose secrets it cannot decrypt', async ({ startOwnServer, receiver }) => {
    let endpoint = { id: '', secret: '' };
    const server = await startOwnServer({
      entry: 'start',
      env: { ...LOCAL, AUTH_SECRET: 'yet another AUTH_SECRET, 32 characters or more' },
      prepare: async (database) => (endpoint = await endpointIn(database.url, receiver.url)),
    });
    expect(server.output()).toContain(
      `[start] warning: the signing secrets of webhook endpoints ${endpoint.id} cannot be decrypted with AUTH_SECRET or AUTH_SECRET_PREVIOUS, so their deliveries fail: ` +
        'set AUTH_SECRET_PREVIOUS to the AUTH_SECRET they were encrypted under, or rotate them (npm run webhook -- rotate-secret ID)',
    );
  });
});
