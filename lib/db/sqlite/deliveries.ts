// The dispatcher's statements on SQLite (the DeliveryStore of lib/db/stores.ts). One process serves
// an SQLite file, and each transaction here is synchronous, so nothing else claims between a select
// and its update. Why not Prisma: they run on the event loop beside the API, as prepared statements
// grouped into the turn's commit (inTransaction); with one webhook endpoint, every create is also
// fanned out, claimed, sent and completed, and `POST /plants` still meets its aim; a cycle's fan-out
// holds the event loop briefly (docs/performance.md#webhooks; lib/webhooks/dispatcher.ts).
import 'server-only';
import { randomId } from '../../ids';
import { deliveryBacklog } from '../delivery-backlog';
import type { ClaimedDelivery, DeliveryStore } from '../stores';
import { sqlitePrisma } from './prisma-client';
import { fromSqliteTime, inTransaction, prepared, toSqliteTime, whenNotBusy } from './connection';

type EventRow = { seq: bigint; type: string; plantId: bigint | null; endpointId: string | null; createdAt: string };
type EndpointRow = { id: string; events: string; enabled: bigint; createdAt: string };
type ClaimRow = Omit<ClaimedDelivery, 'attempts' | 'retries'> & { attempts: bigint; retries: bigint };

const UNFANNED = `SELECT "seq", "type", "plantId", "endpointId", "createdAt" FROM "WebhookEvent" WHERE "fannedOut" = 0 AND "createdAt" <= ? ORDER BY "seq" LIMIT ?`;
const ENDPOINTS = `SELECT "id", "events", "enabled", "createdAt" FROM "WebhookEndpoint"`;
const INSERT_DELIVERY =
  `INSERT INTO "WebhookDelivery" ("id", "eventSeq", "endpointId", "plantId", "status", "nextAttemptAt", "createdAt") ` +
  `VALUES (?, ?, ?, ?, 'pending', ?, ?) ON CONFLICT ("eventSeq", "endpointId") DO NOTHING`;
const MARK_FANNED = `UPDATE "WebhookEvent" SET "fannedOut" = 1 WHERE "seq" = ?`;

// Due deliveries in the order they became due (the index on status and nextAttemptAt), skipping any
// whose plant still has an earlier delivery open to the same endpoint: each plant's events reach an
// endpoint in order. A failed earlier delivery no longer holds the later ones back. The endpoint's
// secret before a rotation comes with them only while it still signs.
const DUE = `
  SELECT d."id", d."attempts", d."retries", d."endpointId", ep."url", ep."secret",
    CASE WHEN ep."previousSecretExpiresAt" > ? THEN ep."previousSecret" END AS "previousSecret",
    ev."id" AS "messageId", ev."payload", ev."traceparent"
  FROM "WebhookDelivery" d
  JOIN "WebhookEndpoint" ep ON ep."id" = d."endpointId"
  JOIN "WebhookEvent" ev ON ev."seq" = d."eventSeq"
  WHERE d."status" = 'pending' AND d."nextAttemptAt" <= ? AND ep."enabled" = 1
    AND (d."plantId" IS NULL OR NOT EXISTS (
      SELECT 1 FROM "WebhookDelivery" e
      WHERE e."endpointId" = d."endpointId" AND e."plantId" = d."plantId" AND e."eventSeq" < d."eventSeq"
        AND e."status" IN ('pending', 'delivering')))
  ORDER BY d."nextAttemptAt"
  LIMIT ?`;
const TAKE = `UPDATE "WebhookDelivery" SET "status" = 'delivering', "leaseUntil" = ?, "attempts" = "attempts" + 1, "lastAttemptAt" = ? WHERE "id" = ?`;
const COMPLETE = `
  UPDATE "WebhookDelivery" SET "status" = ?, "retries" = ?, "nextAttemptAt" = ?, "leaseUntil" = NULL,
    "lastStatusCode" = ?, "lastDurationMs" = ?, "lastError" = ?
  WHERE "id" = ? AND "status" = 'delivering' AND "attempts" = ?`;
const REQUEUE = `UPDATE "WebhookDelivery" SET "status" = 'pending', "leaseUntil" = NULL WHERE "status" = 'delivering' AND "leaseUntil" <= ?`;
const NEXT_DUE = `SELECT min("nextAttemptAt") AS "at" FROM "WebhookDelivery" WHERE "status" = 'pending'`;

export const sqliteDeliveries: DeliveryStore = {
  fanOut({ limit, madeBy, now, recipients }) {
    return inTransaction(() => {
      const events = prepared<[string, number], EventRow>(UNFANNED).all(toSqliteTime(madeBy), limit);
      if (events.length === 0) return 0;
      const endpoints = prepared<[], EndpointRow>(ENDPOINTS)
        .all()
        .map((row) => ({ ...row, enabled: row.enabled !== 0n, createdAt: fromSqliteTime(row.createdAt) }));
      const insert = prepared<[string, bigint, string, bigint | null, string, string]>(INSERT_DELIVERY);
      const mark = prepared<[bigint]>(MARK_FANNED);
      const at = toSqliteTime(now);
      for (const event of events) {
        for (const endpointId of recipients({ ...event, createdAt: fromSqliteTime(event.createdAt) }, endpoints)) {
          insert.run(randomId('dlv_'), event.seq, endpointId, event.plantId, at, at);
        }
        mark.run(event.seq);
      }
      return events.length;
    });
  },

  claim({ limit, now, leaseUntil }) {
    return inTransaction(() => {
      const at = toSqliteTime(now);
      const rows = prepared<[string, string, number], ClaimRow>(DUE).all(at, at, limit);
      const take = prepared<[string, string, string]>(TAKE);
      const lease = toSqliteTime(leaseUntil);
      return rows.map((row) => {
        take.run(lease, at, row.id);
        return { ...row, attempts: Number(row.attempts) + 1, retries: Number(row.retries) };
      });
    });
  },

  async complete(delivery, outcome) {
    // Committed with whatever else this turn writes (see inTransaction).
    await inTransaction(() =>
      prepared<unknown[]>(COMPLETE).run(
        outcome.status,
        outcome.retries,
        toSqliteTime(outcome.nextAttemptAt),
        outcome.statusCode,
        outcome.durationMs,
        outcome.error,
        delivery.id,
        delivery.attempts,
      ),
    );
  },

  async requeueExpired(now) {
    return (await whenNotBusy(() => prepared<[string]>(REQUEUE).run(toSqliteTime(now)))).changes;
  },

  async nextDueAt() {
    const row = await whenNotBusy(() => prepared<[], { at: string | null }>(NEXT_DUE).get());
    return row?.at ? fromSqliteTime(row.at) : null;
  },

  backlog: () => deliveryBacklog(sqlitePrisma()),
};
