// The dispatcher's store (DeliveryStore in lib/db/stores.ts): fan-out, claims, outcomes, leases,
// the same tests in-process against the engine of the vitest project, with no server and no
// dispatcher running. A database of this file's own, its webhook tables emptied before each test.
import { beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../../lib/audit/context';
import { db } from '../../../lib/db/client';
import { engine } from '../../../lib/db/engine';
import type { AttemptOutcome, OutboxRow } from '../../../lib/db/stores';
import { createWebhookEndpoint } from '../../../lib/webhooks/endpoints';
import { insertOutboxRows, plantEvent, testEvent } from '../../../lib/webhooks/outbox';
import { recipientsOf } from '../../../lib/webhooks/recipients';
import { processOnOwnDatabase } from '../../support/fixtures';

processOnOwnDatabase();

const deliveries = () => engine().deliveries;
const SECOND = 1000;
const at = (base: Date, seconds: number) => new Date(base.getTime() + seconds * SECOND);
// A moment of the tests' own, after every row they make.
const base = new Date(Date.now() + 60 * SECOND);

beforeEach(async () => {
  await db().webhookDelivery.deleteMany();
  await db().webhookEvent.deleteMany();
  await db().webhookEndpoint.deleteMany();
});

let endpoints = 0;
async function endpoint(options: { events?: string; enabled?: boolean; createdAt?: Date } = {}) {
  const id = `wh_contract${++endpoints}`;
  await db().webhookEndpoint.create({
    data: {
      id,
      url: `https://192.0.2.${endpoints}/hooks`,
      secret: `whsec_contract${endpoints}`,
      events: options.events ?? 'plant.created,plant.updated,plant.deleted',
      enabled: options.enabled ?? true,
      createdAt: options.createdAt ?? new Date(base.getTime() - 3600 * SECOND),
    },
  });
  return id;
}

const events = (rows: OutboxRow[]) => db().$transaction((tx) => insertOutboxRows(tx, rows));
const created = (plantId: bigint, when: Date, type: 'plant.created' | 'plant.updated' | 'plant.deleted' = 'plant.created') =>
  plantEvent(type, { id: plantId, name: `Plant ${plantId}` }, when);
const fanOut = (limit: number, madeBy: Date, now = madeBy) => deliveries().fanOut({ limit, madeBy, now, recipients: recipientsOf });
const claim = (limit: number, now: Date, leaseSeconds = 60) => deliveries().claim({ limit, now, leaseUntil: at(now, leaseSeconds) });
const rows = () => db().webhookDelivery.findMany({ orderBy: [{ eventSeq: 'asc' }, { endpointId: 'asc' }], include: { event: { select: { id: true } } } });
const outcome = (status: AttemptOutcome['status'], nextAttemptAt: Date, retries = 0): AttemptOutcome => ({
  status,
  retries,
  nextAttemptAt,
  statusCode: status === 'succeeded' ? 204 : 503,
  durationMs: 12,
  error: status === 'succeeded' ? null : 'HTTP 503',
});

describe('fan-out', () => {
  it('turns the events made by `madeBy`, oldest first and `limit` at a time, into one pending delivery per endpoint the rule names', async () => {
    const [first, second] = [await endpoint(), await endpoint({ events: 'plant.deleted' })];
    await endpoint({ enabled: false });
    await endpoint({ createdAt: at(base, 100) });
    await events([created(1n, at(base, 1)), created(2n, at(base, 2)), created(3n, at(base, 3), 'plant.deleted'), created(4n, at(base, 50))]);

    expect(await fanOut(2, at(base, 10), at(base, 11))).toBe(2);
    expect((await rows()).map((row) => [row.plantId, row.endpointId, row.status, row.nextAttemptAt.getTime(), row.attempts])).toEqual([
      [1n, first, 'pending', at(base, 11).getTime(), 0],
      [2n, first, 'pending', at(base, 11).getTime(), 0],
    ]);
    // Then the rest made by then; the event made later waits for a later fan-out.
    expect(await fanOut(10, at(base, 10))).toBe(1);
    expect((await rows()).slice(2).map((row) => [row.plantId, row.endpointId])).toEqual([
      [3n, first],
      [3n, second],
    ]);
    expect(await fanOut(10, at(base, 10))).toBe(0);
    expect(await fanOut(10, at(base, 60))).toBe(1);
    expect(await db().webhookEvent.count({ where: { fannedOut: false } })).toBe(0);
  });

  it('sends a test event to its one endpoint only', async () => {
    const [target] = [await endpoint(), await endpoint()];
    await events([testEvent(target, at(base, 1))]);
    expect(await fanOut(10, at(base, 2))).toBe(1);
    expect((await rows()).map((row) => [row.endpointId, row.plantId])).toEqual([[target, null]]);
  });
});

describe('claims', () => {
  it('take due deliveries of enabled endpoints for a lease, counting the attempt, with what the attempt needs', async () => {
    const live = await endpoint();
    await events([created(10n, at(base, 1)), created(11n, at(base, 2))]);
    await fanOut(10, at(base, 3));
    const paused = await endpoint({ createdAt: at(base, 0) });
    await events([created(12n, at(base, 4))]);
    await fanOut(10, at(base, 5));
    await db().webhookEndpoint.update({ where: { id: paused }, data: { enabled: false } });

    expect(await claim(10, at(base, 2))).toEqual([]);
    const claimed = await claim(1, at(base, 6));
    const [event] = await db().webhookEvent.findMany({ where: { plantId: 10n } });
    expect(claimed).toEqual([
      { id: expect.stringMatching(/^dlv_/), attempts: 1, retries: 0, endpointId: live, url: 'https://192.0.2.' + live.slice('wh_contract'.length) + '/hooks', secret: expect.stringMatching(/^whsec_/), previousSecret: null, messageId: event.id, payload: event.payload, traceparent: null },
    ]);
    const row = await db().webhookDelivery.findUniqueOrThrow({ where: { id: claimed[0].id } });
    expect(row).toMatchObject({ status: 'delivering', attempts: 1, leaseUntil: at(base, 66), lastAttemptAt: at(base, 6) });
    // The next due one to the live endpoint, and nothing of the paused one's.
    expect((await claim(10, at(base, 6))).map((delivery) => delivery.endpointId)).toEqual([live, live]);
    expect(await claim(10, at(base, 6))).toEqual([]);
  });

  it("carry the endpoint's secret before a rotation only while it still signs, by the claim's `now`", async () => {
    const id = await endpoint();
    await db().webhookEndpoint.update({ where: { id }, data: { previousSecret: 'v1:before', previousSecretExpiresAt: at(base, 10) } });
    await events([created(30n, at(base, 1)), created(31n, at(base, 2))]);
    await fanOut(10, at(base, 3));
    const [during] = await claim(1, at(base, 9));
    expect(during).toMatchObject({ endpointId: id, secret: `whsec_contract${id.slice('wh_contract'.length)}`, previousSecret: 'v1:before' });
    const [after] = await claim(1, at(base, 10));
    expect(after).toMatchObject({ endpointId: id, previousSecret: null });
  });

  it("never take a plant's delivery while an earlier one of the same plant to the same endpoint is open", async () => {
    const id = await endpoint();
    await events([created(20n, at(base, 1)), created(20n, at(base, 2), 'plant.updated'), created(21n, at(base, 3))]);
    await fanOut(10, at(base, 4));
    const first = await claim(10, at(base, 5));
    expect(first.map((delivery) => JSON.parse(delivery.payload).type)).toEqual(['plant.created', 'plant.created']);
    // Pending a retry, the earlier delivery still holds the later one back.
    const [earlier] = first;
    await deliveries().complete(earlier, outcome('pending', at(base, 30), 1), at(base, 6));
    expect(await claim(10, at(base, 10))).toEqual([]);
    // Failed for good, it no longer does.
    const [retried] = await claim(10, at(base, 30));
    expect(retried).toMatchObject({ id: earlier.id, attempts: 2, retries: 1, endpointId: id });
    await deliveries().complete(retried, outcome('failed', at(base, 31), 1), at(base, 31));
    expect((await claim(10, at(base, 31))).map((delivery) => JSON.parse(delivery.payload).type)).toEqual(['plant.updated']);
  });

  it('never hand one delivery to two claims made at the same moment', async () => {
    // An endpoint nothing here delivers to (no server runs on this database).
    const { endpoint: made } = await createWebhookEndpoint({ url: 'https://93.184.215.14/never-called' }, OPERATOR_COMMAND);
    const rows = Array.from({ length: 200 }, (_, index) => plantEvent('plant.created', { id: BigInt(index + 1), name: `Plant ${index}` }, new Date(Date.now() + 1000)));
    await db().$transaction((tx) => insertOutboxRows(tx, rows));
    const now = new Date(Date.now() + 2000);
    expect(await deliveries().fanOut({ limit: 500, madeBy: now, now, recipients: recipientsOf })).toBe(200);

    // Twenty claims at once (on PostgreSQL, on ten pooled connections: with SKIP LOCKED each row goes to one).
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => deliveries().claim({ limit: 15, now: new Date(now.getTime() + 1000), leaseUntil: new Date(now.getTime() + 60_000) })),
    );
    const taken = claims.flat().map((delivery) => delivery.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.length).toBe(200);
    expect(claims.flat().every((delivery) => delivery.endpointId === made.id && delivery.attempts === 1)).toBe(true);
  });
});

describe('outcomes and leases', () => {
  it('record an attempt, unless the delivery was taken again meanwhile', async () => {
    await endpoint();
    await events([created(30n, at(base, 1))]);
    await fanOut(10, at(base, 2));
    const [stale] = await claim(1, at(base, 3), 10);
    // Its lease runs out; the delivery is due again and taken by another claim.
    expect(await deliveries().requeueExpired(at(base, 20))).toBe(1);
    const [fresh] = await claim(1, at(base, 21));
    expect(fresh).toMatchObject({ id: stale.id, attempts: 2 });
    await deliveries().complete(stale, outcome('failed', at(base, 22)), at(base, 22));
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: stale.id } })).toMatchObject({ status: 'delivering', attempts: 2, lastStatusCode: null });
    await deliveries().complete(fresh, outcome('succeeded', at(base, 23)), at(base, 23));
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: stale.id } })).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      retries: 0,
      nextAttemptAt: at(base, 23),
      leaseUntil: null,
      lastStatusCode: 204,
      lastDurationMs: 12,
      lastError: null,
    });
  });

  it('requeue only deliveries whose lease has run out, and say when the next pending one is due', async () => {
    await endpoint();
    expect(await deliveries().nextDueAt()).toBeNull();
    await events([created(40n, at(base, 1)), created(41n, at(base, 2))]);
    await fanOut(10, at(base, 3), at(base, 5));
    expect(await deliveries().nextDueAt()).toEqual(at(base, 5));
    const [taken] = await claim(1, at(base, 6), 30);
    expect(await deliveries().nextDueAt()).toEqual(at(base, 5));
    expect(await deliveries().requeueExpired(at(base, 35))).toBe(0);
    expect(await deliveries().requeueExpired(at(base, 36))).toBe(1);
    expect(await db().webhookDelivery.findUniqueOrThrow({ where: { id: taken.id } })).toMatchObject({ status: 'pending', leaseUntil: null, attempts: 1 });
    const rest = await claim(10, at(base, 40));
    for (const delivery of rest) await deliveries().complete(delivery, outcome('pending', at(base, 70 + delivery.attempts), 1), at(base, 41));
    expect(await deliveries().nextDueAt()).toEqual(at(base, 71));
  });
});

describe('the backlog', () => {
  it('counts the deliveries still to make (pending or being attempted) to enabled endpoints, with when the oldest was made', async () => {
    expect(await deliveries().backlog()).toEqual({ pending: 0, oldestCreatedAt: null });
    const [first, second] = [await endpoint(), await endpoint()];
    await events([created(50n, at(base, 1)), created(51n, at(base, 2))]);
    await fanOut(10, at(base, 3), at(base, 6));
    await events([created(52n, at(base, 20))]);
    await fanOut(10, at(base, 20), at(base, 21));
    expect(await deliveries().backlog()).toEqual({ pending: 6, oldestCreatedAt: at(base, 6) });

    // Being attempted still counts; delivered, or failed for good, no longer does.
    const [delivering, delivered, failed] = await claim(3, at(base, 30));
    expect([delivering, delivered, failed].every(Boolean)).toBe(true);
    await deliveries().complete(delivered, outcome('succeeded', at(base, 31)), at(base, 31));
    await deliveries().complete(failed, outcome('failed', at(base, 31)), at(base, 31));
    expect(await deliveries().backlog()).toEqual({ pending: 4, oldestCreatedAt: at(base, 6) });

    // Deliveries waiting for a disabled endpoint are left out.
    await db().webhookEndpoint.update({ where: { id: second }, data: { enabled: false } });
    const open = await db().webhookDelivery.count({ where: { endpointId: first, status: { in: ['pending', 'delivering'] } } });
    expect(open).toBeGreaterThan(0);
    expect((await deliveries().backlog()).pending).toBe(open);
  });
});
