// The dispatcher's statements on PostgreSQL (the DeliveryStore of lib/db/stores.ts), where several
// instances share the outbox. Fan-out takes a transaction-scoped advisory lock, so one instance at a
// time turns events into deliveries, in event order. Claims lock the rows they take with FOR UPDATE
// SKIP LOCKED and mark them taken for a lease in the same statement: two instances never attempt the
// same delivery at the same time, and neither waits for the other. Those two are raw SQL because
// Prisma's query API has neither advisory locks nor SKIP LOCKED, run by the engine's executor (the
// lock in the fan-out's transaction, which Prisma's writes share); the rest is Prisma's query API.
import 'server-only';
import { postgresqlExecutor } from './executor';
import { postgresqlPrisma as db } from './prisma-client';
import { randomId } from '../../ids';
import { deliveryBacklog } from '../delivery-backlog';
import type { ClaimedDelivery, DeliveryStore } from '../stores';

// Any fixed number: the advisory lock that serialises fan-out across instances.
const FAN_OUT_LOCK = 0x706c616e74; // "plant"

type EventRow = { seq: number; type: string; plantId: bigint | null; endpointId: string | null; createdAt: Date };

export const postgresqlDeliveries: DeliveryStore = {
  fanOut({ limit, madeBy, now, recipients }) {
    return postgresqlExecutor.transaction(async (statements, tx) => {
      const [{ locked }] = await statements.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(@lock::bigint) AS "locked"', { lock: FAN_OUT_LOCK });
      // Another instance is fanning out; it takes these events in order.
      if (!locked) return 0;
      const events = await tx.webhookEvent.findMany({
        where: { fannedOut: false, createdAt: { lte: madeBy } },
        orderBy: { seq: 'asc' },
        take: limit,
        select: { seq: true, type: true, plantId: true, endpointId: true, createdAt: true },
      });
      if (events.length === 0) return 0;
      const endpoints = await tx.webhookEndpoint.findMany({ select: { id: true, events: true, enabled: true, createdAt: true } });
      const deliveries = events.flatMap((event: EventRow) =>
        recipients(event, endpoints).map((endpointId) => ({
          id: randomId('dlv_'),
          eventSeq: event.seq,
          endpointId,
          plantId: event.plantId,
          status: 'pending',
          nextAttemptAt: now,
          createdAt: now,
        })),
      );
      if (deliveries.length > 0) await tx.webhookDelivery.createMany({ data: deliveries });
      await tx.webhookEvent.updateMany({ where: { seq: { in: events.map((event) => event.seq) } }, data: { fannedOut: true } });
      return events.length;
    });
  },

  async claim({ limit, now, leaseUntil }) {
    return postgresqlExecutor.query<ClaimedDelivery>(
      `
      WITH due AS (
        SELECT d."id" FROM "WebhookDelivery" d
        JOIN "WebhookEndpoint" ep ON ep."id" = d."endpointId"
        WHERE d."status" = 'pending' AND d."nextAttemptAt" <= @now AND ep."enabled"
          AND (d."plantId" IS NULL OR NOT EXISTS (
            SELECT 1 FROM "WebhookDelivery" e
            WHERE e."endpointId" = d."endpointId" AND e."plantId" = d."plantId" AND e."eventSeq" < d."eventSeq"
              AND e."status" IN ('pending', 'delivering')))
        ORDER BY d."nextAttemptAt"
        LIMIT @limit
        FOR UPDATE OF d SKIP LOCKED
      )
      UPDATE "WebhookDelivery" d
      SET "status" = 'delivering', "leaseUntil" = @leaseUntil, "attempts" = d."attempts" + 1, "lastAttemptAt" = @now
      FROM due, "WebhookEndpoint" ep, "WebhookEvent" ev
      WHERE d."id" = due."id" AND ep."id" = d."endpointId" AND ev."seq" = d."eventSeq"
      RETURNING d."id", d."attempts", d."retries", d."endpointId", ep."url", ep."secret",
        CASE WHEN ep."previousSecretExpiresAt" > @now THEN ep."previousSecret" END AS "previousSecret",
        ev."id" AS "messageId", ev."payload", ev."traceparent"`,
      { now, limit, leaseUntil },
    );
  },

  async complete(delivery, outcome) {
    await db().webhookDelivery.updateMany({
      where: { id: delivery.id, status: 'delivering', attempts: delivery.attempts },
      data: {
        status: outcome.status,
        retries: outcome.retries,
        nextAttemptAt: outcome.nextAttemptAt,
        leaseUntil: null,
        lastStatusCode: outcome.statusCode,
        lastDurationMs: outcome.durationMs,
        lastError: outcome.error,
      },
    });
  },

  async requeueExpired(now) {
    const { count } = await db().webhookDelivery.updateMany({
      where: { status: 'delivering', leaseUntil: { lte: now } },
      data: { status: 'pending', leaseUntil: null },
    });
    return count;
  },

  async nextDueAt() {
    const next = await db().webhookDelivery.findFirst({ where: { status: 'pending' }, orderBy: { nextAttemptAt: 'asc' }, select: { nextAttemptAt: true } });
    return next?.nextAttemptAt ?? null;
  },

  backlog: () => deliveryBacklog(db()),
};
