// Webhooks end to end, on each engine: a production server with its own database, and a local
// receiver that verifies every signature with the standardwebhooks package's own verifier. The
// dispatcher's store itself (fan-out, claims, leases) is held to its contract in
// test/db/contract/deliveries.test.ts.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createOn, request, uniqueId } from '../support/api';
import { staffContext } from '../../lib/audit/context';
import { listAuditRecords } from '../../lib/audit/service';
import {
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  resendDelivery,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from '../../lib/webhooks/endpoints';
import { newAccount, signIn } from '../support/accounts';
import { testEngine, tokenIn, usingDatabase, type TestDatabase } from '../support/database';
import { test as base, type OwnServer, type OwnServerOptions } from '../support/fixtures';
import { idleHealth, scaledBound } from '../support/latency';
import { startReceiver, type Receiver } from '../support/receiver';
import { dispatchHold } from '../support/server';
import { callAction, form } from '../support/server-actions';
import { deliveriesIn, endpointIn } from '../support/webhooks';

const INT64_MAX = 9223372036854775807n;
// Retries come quickly here; the default schedule is 5s,5m,30m,2h,5h,10h,10h.
const TEST_SCHEDULE = '100ms,200ms';

// Receivers, each verifying every signature; all closed when the file ends.
const test = base.extend('startReceiver', { scope: 'file' }, async ({}, { onCleanup }) => {
  const started: Receiver[] = [];
  onCleanup(async () => {
    for (const receiver of started) await receiver.close();
  });
  return async () => {
    const receiver = await startReceiver();
    started.push(receiver);
    return receiver;
  };
});

/**
 * A receiver, and a server (started by `start`: the file's or the test's own) on a database of its
 * own that holds an endpoint for the receiver and a token.
 */
async function setUp(
  start: (options: OwnServerOptions) => Promise<OwnServer>,
  receiverFor: () => Promise<Receiver>,
  env: Record<string, string> = {},
  nodeFlags: string[] = [],
) {
  const receiver = await receiverFor();
  let endpointId = '';
  const server = await start({
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1', WEBHOOK_RETRY_SCHEDULE: TEST_SCHEDULE, ...env },
    nodeFlags,
    prepare: async (database) => {
      const endpoint = await endpointIn(database.url, receiver.url);
      receiver.setSecret(endpoint.secret);
      endpointId = endpoint.id;
    },
  });
  const { database } = server;
  const { token } = await tokenIn(database.url, 'webhooks');
  return { database, receiver, server, token, endpointId };
}

const plantJson = (id: bigint, name: string) => `{"id": ${id}, "name": ${JSON.stringify(name)}}`;

describe('webhook deliveries', () => {
  let database: TestDatabase;
  let receiver: Receiver;
  let server: OwnServer;
  let token: string;
  const bearer = () => ({ authorization: `Bearer ${token}` });

  test.beforeAll(async ({ startFileServer, startReceiver }) => {
    ({ database, receiver, server, token } = await setUp(startFileServer, startReceiver));
  });
  beforeEach(() => receiver.respondWith(204));
  afterAll(() => expect(receiver.rejected).toEqual([]));

  it('deliver plant.created within 2 s, signed, with the API\'s Plant JSON digit for digit (int64 max)', async () => {
    const sent = performance.now();
    const created = await createOn(server, token, `{"id": ${INT64_MAX}, "name": "Largest", "tag": "edge"}`);
    expect(created.status).toBe(200);
    const [delivery] = await receiver.waitFor((d) => d.event.type === 'plant.created' && d.event.data.id === INT64_MAX);
    // Within 2 s, or as many times more as the server is slower idle here (test/support/latency.ts).
    expect(delivery.receivedAt - sent).toBeLessThan(scaledBound(2000, await idleHealth(server.url)));
    expect(delivery.id).toMatch(/^msg_\w{24}$/);
    // The envelope, in this order, with `data` exactly as the API answers.
    expect(delivery.body).toMatch(/^\{"type":"plant\.created","timestamp":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z","data":/);
    expect(delivery.body).toBe(`{"type":"plant.created","timestamp":"${delivery.event.timestamp}","data":${created.text}}`);
    expect(created.text).toBe('{"id":9223372036854775807,"name":"Largest","tag":"edge"}');
  });

  it('deliver plant.deleted with the plant as it was, after its plant.created', async () => {
    const id = uniqueId();
    await createOn(server, token, plantJson(id, 'Short-lived'));
    expect((await request(server, `/plants/${id}`, { method: 'DELETE', headers: bearer() })).status).toBe(204);
    const [deleted] = await receiver.waitFor((d) => d.event.type === 'plant.deleted' && d.event.data.id === id);
    expect(deleted.event.data).toEqual({ id, name: 'Short-lived' });
    const forPlant = receiver.deliveries.filter((d) => d.event.data.id === id).map((d) => d.event.type);
    expect(forPlant).toEqual(['plant.created', 'plant.deleted']);
  });

  it('send nothing for an idempotent replay, nor for a refused change', async () => {
    const id = uniqueId();
    await createOn(server, token, plantJson(id, 'Once'));
    expect((await createOn(server, token, plantJson(id, 'Once'))).headers.get('idempotent-replayed')).toBe('true');
    expect((await createOn(server, token, plantJson(id, 'Conflict'))).status).toBe(409);
    expect((await request(server, `/plants/${uniqueId()}`, { method: 'DELETE', headers: bearer() })).status).toBe(404);
    // A later change's delivery comes after anything those could have sent.
    const marker = uniqueId();
    await createOn(server, token, plantJson(marker, 'Marker'));
    await receiver.waitFor((d) => d.event.data.id === marker);
    expect(receiver.deliveries.filter((d) => d.event.data.id === id)).toHaveLength(1);
    const events = await database.execute(`SELECT count(*) AS "n" FROM "WebhookEvent" WHERE "plantId" = ${id}`);
    expect(Number((events[0] as { n: bigint }).n)).toBe(1);
  });

  it('send plant.updated with the plant as it is now, and nothing for a PATCH that changes nothing', async () => {
    const id = uniqueId();
    await createOn(server, token, `{"id": ${id}, "name": "Before", "tag": "old"}`);
    const patch = (body: string) =>
      request(server, `/plants/${id}`, { method: 'PATCH', headers: { ...bearer(), 'content-type': 'application/merge-patch+json' }, body });
    expect((await patch('{"name": "After", "tag": null}')).status).toBe(200);
    expect((await patch('{"name": "After"}')).status).toBe(200);
    const [updated] = await receiver.waitFor((d) => d.event.type === 'plant.updated' && d.event.data.id === id);
    expect(updated.event.data).toEqual({ id, name: 'After' });
    const marker = uniqueId();
    await createOn(server, token, plantJson(marker, 'Marker'));
    await receiver.waitFor((d) => d.event.data.id === marker);
    expect(receiver.deliveries.filter((d) => d.event.data.id === id).map((d) => d.event.type)).toEqual(['plant.created', 'plant.updated']);
  });

  it('send one event per plant a batch stores, and none for its replays and refusals', async () => {
    const existing = uniqueId();
    await createOn(server, token, plantJson(existing, 'Already here'));
    const [a, b] = [uniqueId(), uniqueId()];
    const items = [`{"id": ${a}, "name": "Batch A"}`, `{"id": ${existing}, "name": "Already here"}`, `{"id": ${existing}, "name": "Conflict"}`, `{"id": ${b}, "name": "Batch B"}`, '{"id": 1.5}'];
    const answer = await request(server, '/plants/batch', { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: `[${items.join(',')}]` });
    expect(answer.status).toBe(200);
    await receiver.waitFor((d) => d.event.data.id === a || d.event.data.id === b, { count: 2 });
    const marker = uniqueId();
    await createOn(server, token, plantJson(marker, 'Marker'));
    await receiver.waitFor((d) => d.event.data.id === marker);
    const batchEvents = receiver.deliveries.filter((d) => [a, b, existing].includes(d.event.data.id as bigint));
    expect(batchEvents.map((d) => `${d.event.type} ${d.event.data.name}`)).toEqual(['plant.created Already here', 'plant.created Batch A', 'plant.created Batch B']);
  });

  it('retry a receiver that fails twice: the same webhook-id, signed anew, then succeeded', async () => {
    receiver.respondWith(({ count }) => (count < 2 ? 503 : 204));
    const id = uniqueId();
    await createOn(server, token, plantJson(id, 'Persistent'));
    const [delivered] = await receiver.waitFor((d) => d.event.data.id === id);
    expect(receiver.attempts.filter((attempt) => attempt.id === delivered.id).map((attempt) => attempt.status)).toEqual([503, 503, 204]);
    await expect
      .poll(async () => (await deliveriesIn(database)).find((row) => row.messageId === delivered.id))
      .toMatchObject({ status: 'succeeded', lastStatusCode: expect.anything() });
    const row = (await deliveriesIn(database)).find((found) => found.messageId === delivered.id)!;
    expect(Number(row.attempts)).toBe(3);
    expect(Number(row.lastStatusCode)).toBe(204);
  });

  it('keep each plant\'s events in order while earlier ones are retried', async () => {
    // Every event's first attempt fails, so each plant's later events must wait for the retry.
    receiver.respondWith(({ count }) => (count === 0 ? 500 : 204));
    const id = uniqueId();
    for (const name of ['First', 'Second']) {
      await createOn(server, token, plantJson(id, name));
      expect((await request(server, `/plants/${id}`, { method: 'DELETE', headers: bearer() })).status).toBe(204);
    }
    await receiver.waitFor((d) => d.event.data.id === id, { count: 4 });
    const order = receiver.deliveries.filter((d) => d.event.data.id === id).map((d) => `${d.event.type} ${d.event.data.name}`);
    expect(order).toEqual(['plant.created First', 'plant.deleted First', 'plant.created Second', 'plant.deleted Second']);
  });

  it('mark a delivery failed after the last retry, and not follow redirects', async () => {
    receiver.respondWith(({ count }) => (count === 0 ? 302 : 500));
    const id = uniqueId();
    await createOn(server, token, plantJson(id, 'Unlucky'));
    await expect.poll(async () => (await deliveriesIn(database)).some((row) => row.status === 'failed'), { timeout: 10_000 }).toBe(true);
    const row = (await deliveriesIn(database)).find((found) => found.status === 'failed')!;
    // The first attempt and the schedule's two retries, and not one more.
    expect(Number(row.attempts)).toBe(3);
    const statuses = receiver.attempts.filter((attempt) => attempt.id === row.messageId).map((attempt) => attempt.status);
    expect(statuses).toEqual([302, 500, 500]);
    expect(receiver.deliveries.some((d) => d.id === row.messageId)).toBe(false);
  });

  it('manage an endpoint: a test event, disable and enable, resend a failed delivery, delete; each change recorded', async () => {
    const admin = { id: 'usr_webhookadmin', email: 'webhook-admin@example.com' };
    const context = staffContext(admin);
    await usingDatabase(database.url, async () => {
      const [endpoint] = await listWebhookEndpoints();

      await sendTestEvent(endpoint.id, context);
      const [test] = await receiver.waitFor((d) => d.event.type === 'webhook.test');
      expect(test.event.data).toEqual({ endpointId: endpoint.id, message: expect.stringContaining('test event') });

      // Changes made while it is disabled are never sent to it; those after it is enabled are.
      await setWebhookEndpointEnabled(endpoint.id, false, context);
      const unheard = uniqueId();
      await createOn(server, token, plantJson(unheard, 'Unheard'));
      // With no endpoint enabled to hear of it, the change writes no outbox row at all.
      expect(await database.execute(`SELECT "seq" FROM "WebhookEvent" WHERE "plantId" = ${unheard}`)).toEqual([]);
      await expect(sendTestEvent(endpoint.id, context)).rejects.toThrow(/disabled/);
      await setWebhookEndpointEnabled(endpoint.id, true, context);
      const heard = uniqueId();
      await createOn(server, token, plantJson(heard, 'Heard'));
      await receiver.waitFor((d) => d.event.data.id === heard);
      expect(receiver.deliveries.some((d) => d.event.data.id === unheard)).toBe(false);

      const failed = (await deliveriesIn(database)).find((row) => row.status === 'failed')!;
      await resendDelivery(failed.id, context);
      await receiver.waitFor((d) => d.id === failed.messageId);
      await expect.poll(async () => (await deliveriesIn(database)).find((row) => row.id === failed.id)?.status).toBe('succeeded');
      await expect(resendDelivery(failed.id, context)).rejects.toThrow(/No failed webhook delivery/);

      await deleteWebhookEndpoint(endpoint.id, context);
      expect(await deliveriesIn(database)).toEqual([]);
      await expect(deleteWebhookEndpoint(endpoint.id, context)).rejects.toThrow(/No webhook endpoint has id/);

      const { records } = await listAuditRecords({ target: `webhook:${endpoint.id}`, limit: 100 });
      expect(records.map((record) => [record.action, record.actor.type, record.actor.name]).reverse()).toEqual([
        ['webhook.created', 'system', 'cli'],
        ['webhook.test_sent', 'staff', admin.email],
        ['webhook.disabled', 'staff', admin.email],
        ['webhook.enabled', 'staff', admin.email],
        ['webhook.delivery_resent', 'staff', admin.email],
        ['webhook.deleted', 'staff', admin.email],
      ]);
      expect(records[0].before).toEqual({ url: receiver.url, events: ['plant.created', 'plant.updated', 'plant.deleted'] });
    });
  });

  test('do the same through the page\'s server actions, recorded as the admin who called them', async ({ startReceiver }) => {
    const other = await startReceiver();
    const admin = await usingDatabase(database.url, () => newAccount('admin', 'webhook-page'));
    const asAdmin = await signIn(server.url, admin);
    const call = (name: string, ...args: unknown[]) => callAction(asAdmin, '/webhooks', name, ...args).then((answer) => answer.value);

    const created = (await call('createEndpointAction', { kind: 'idle' }, form({ url: other.url, events: ['plant.created'] }))) as { kind: string; secret: string };
    expect(created).toMatchObject({ kind: 'created', url: other.url, secret: expect.stringMatching(/^whsec_/) });
    other.setSecret(created.secret);
    const { id } = (await usingDatabase(database.url, () => listWebhookEndpoints())).find((endpoint) => endpoint.url === other.url)!;
    expect(await call('sendTestEventAction', id)).toEqual({ ok: true });
    await other.waitFor((d) => d.event.type === 'webhook.test');
    expect(await call('setEndpointEnabledAction', id, false)).toEqual({ ok: true });
    expect(await call('sendTestEventAction', id)).toEqual({ ok: false, message: 'This endpoint is disabled: enable it first, then send a test event' });
    expect(await call('deleteEndpointAction', id)).toEqual({ ok: true });
    expect(await call('deleteEndpointAction', id)).toEqual({ ok: false, message: `No webhook endpoint has id ${id}` });
    expect(await call('resendDeliveryAction', 'dlv_nosuchdelivery')).toEqual({ ok: false, message: 'No failed webhook delivery has id dlv_nosuchdelivery' });

    const { records } = await usingDatabase(database.url, () => listAuditRecords({ target: `webhook:${id}`, limit: 10 }));
    const byAdmin = { type: 'staff', id: admin.id, name: admin.email };
    expect(records.map((record) => [record.action, record.actor]).reverse()).toEqual([
      ['webhook.created', byAdmin],
      ['webhook.test_sent', byAdmin],
      ['webhook.disabled', byAdmin],
      ['webhook.deleted', byAdmin],
    ]);
    expect(other.rejected).toEqual([]);
  });
});

describe('a server killed between the commit and the delivery', () => {
  test('delivers the event after it restarts', async ({ startOwnServer, startReceiver }) => {
    // The first server holds every event for a minute (test/support/dispatch-hold.mjs): it answers
    // 200, the event is committed, and nothing has been sent when it is killed.
    const { database, receiver, server, token } = await setUp(startOwnServer, startReceiver, {}, [dispatchHold(60_000)]);
    const id = uniqueId();
    // Answered 200: committed.
    expect((await createOn(server, token, plantJson(id, 'Survivor'))).status).toBe(200);
    await server.stop('SIGKILL');
    expect(receiver.attempts).toEqual([]);

    // The restarted server, stopped with the test, delivers what the first one committed: soon after
    // it is ready (however long a busy machine took to start it), within 10 s, or as many times
    // more as it is slower idle here (test/support/latency.ts).
    const restarted = await startOwnServer({ database, env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1' } });
    const ready = performance.now();
    const [delivered] = await receiver.waitFor((d) => d.event.data.id === id);
    expect(delivered.event).toMatchObject({ type: 'plant.created', data: { id, name: 'Survivor' } });
    expect(delivered.receivedAt - ready).toBeLessThan(scaledBound(10_000, await idleHealth(restarted.url)));
    expect(receiver.rejected).toEqual([]);
  });
});

describe.runIf(testEngine() === 'postgresql')('two instances sharing one PostgreSQL database', () => {
  test('deliver each event exactly once, whichever instance stored it', async ({ startOwnServer, startReceiver }) => {
    // Both hold events for a moment, so both dispatchers find the same ones due at the same time;
    // a slow receiver keeps both claiming, as each finished attempt frees a slot, while the other does.
    const nodeFlags = [dispatchHold(500)];
    const { database, receiver, server: first, token } = await setUp(startOwnServer, startReceiver, {}, nodeFlags);
    receiver.delayAnswers(20);
    const second = await startOwnServer({ database, env: { WEBHOOK_ALLOW_PRIVATE_URLS: '1' }, nodeFlags });
    const ids = Array.from({ length: 100 }, () => uniqueId());
    const answers = await Promise.all(ids.map((id, index) => createOn(index % 2 ? second : first, token, plantJson(id, `Plant ${index}`))));
    expect(answers.map((answer) => answer.status)).toEqual(ids.map(() => 200));

    await receiver.waitFor(() => true, { count: ids.length, timeoutMs: 30_000 });
    // Every delivery finished, each after one attempt: nothing is left that could arrive late.
    await expect.poll(async () => (await deliveriesIn(database)).every((row) => row.status === 'succeeded'), { timeout: 10_000 }).toBe(true);
    expect(receiver.rejected).toEqual([]);
    const messageIds = receiver.attempts.map((attempt) => attempt.id);
    expect(messageIds).toHaveLength(ids.length);
    expect(new Set(messageIds).size).toBe(ids.length);
    expect(new Set(receiver.deliveries.map((d) => d.event.data.id))).toEqual(new Set(ids));
    const rows = await deliveriesIn(database);
    expect(rows.map((row) => [row.status, Number(row.attempts)])).toEqual(ids.map(() => ['succeeded', 1]));
  });
});

describe.runIf(testEngine() === 'postgresql')('without a long-running dispatcher, as on Vercel', () => {
  test('deliver right after the response, and leave retries to the cron route, which only the scheduler may call', async ({ startOwnServer, startReceiver }) => {
    const cronSecret = 'cron-secret-for-tests';
    // VERCEL=1: no dispatcher in the process; Next's router, where after() runs.
    // The retry 10 s after the first attempt: the work after the response delivers whatever falls
    // due while it runs, and on a busy machine one 100 ms away could fall due before it ended.
    const { database, receiver, server, token } = await setUp(startOwnServer, startReceiver, {
      VERCEL: '1',
      API_DIRECT_ROUTES: 'off',
      CRON_SECRET: cronSecret,
      WEBHOOK_RETRY_SCHEDULE: '10s',
    });
    receiver.respondWith(({ count }) => (count === 0 ? 503 : 204));
    const id = uniqueId();
    const sent = performance.now();
    expect((await createOn(server, token, plantJson(id, 'Serverless'))).status).toBe(200);
    await expect.poll(() => receiver.attempts.length).toBe(1);
    expect(performance.now() - sent).toBeLessThan(scaledBound(2000, await idleHealth(server.url)));

    // The retry falls due 10 s after the first attempt, but nothing here sends it until the
    // scheduler calls. So that "nothing" means something: once the first attempt's result is
    // stored, the server's clock is moved a minute on (the retry long due by the server's own
    // time) and a request is answered (after which after() work runs); still one attempt.
    await expect.poll(async () => (await deliveriesIn(database)).map((row) => [Number(row.attempts), Number(row.lastStatusCode)])).toEqual([[1, 503]]);
    await server.clock.advance(60_000);
    expect((await request(server, `/plants/${id}`, { token })).status).toBe(200);
    expect(receiver.attempts).toHaveLength(1);
    const cron = (authorization?: string) => request(server, '/api/cron/webhooks', { headers: authorization ? { authorization } : {} });
    expect((await cron()).status).toBe(401);
    expect((await cron('Bearer not-the-secret')).status).toBe(401);
    expect((await cron(`Bearer ${token}`)).status).toBe(401);
    const ran = await cron(`Bearer ${cronSecret}`);
    expect(ran.status).toBe(200);
    // No email on this server: no message sent.
    expect(ran.body).toEqual({ attempts: 1, messages: 0 });
    const [delivered] = await receiver.waitFor((d) => d.event.data.id === id);
    expect(receiver.attempts.map((attempt) => [attempt.id, attempt.status])).toEqual([
      [delivered.id, 503],
      [delivered.id, 204],
    ]);
    expect(receiver.rejected).toEqual([]);
    // The daily prune answers what it removed.
    const pruned = await request(server, '/api/cron/retention', { headers: { authorization: `Bearer ${cronSecret}` } });
    expect(pruned.body).toEqual({ auditEvents: 0, deliveries: 0, events: 0, messages: 0 });
  });
});
