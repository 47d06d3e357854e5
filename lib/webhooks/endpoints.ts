// Webhook endpoints: the one way to make, list, switch, delete and test them, for the CLI and the
// /webhooks page alike. Each change writes its audit record in the same transaction. Each
// transaction writes before it reads: on SQLite a transaction that read first could not write
// once the API's own connection had committed meanwhile.
import 'server-only';
import { z } from 'zod';
import type { ChangeContext } from '../audit/context';
import { auditRow, insertAuditRows, type AuditEntry } from '../audit/records';
import { db, type Transaction } from '../db/client';
import { ApiError } from '../errors';
import { parseWith } from '../shared/validation';
import { randomId } from '../ids';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from './event-types';
import { checkDestination, parseWebhookUrl } from './guard';
import { insertOutboxRows, testEvent } from './outbox';
import { newSigningSecret } from './signing';
import { secretGraceMs } from './config';
import { isPlainSecret, openSecret, sealSecret, UnreadableSecretError } from './secret-cipher';
import { currentDate } from '../shared/clock';
import { deliverSoon } from './wake';

export type WebhookEndpointSummary = {
  id: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  createdAt: Date;
  /** Until when the secret before the latest rotation still signs deliveries beside the new one; null when none does. */
  previousSecretSignsUntil: Date | null;
};

export type DeliverySummary = {
  id: string;
  endpointId: string;
  eventType: string;
  messageId: string;
  plantId: bigint | null;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
};

export const NewWebhookEndpoint = z.object({
  url: z.string({ error: 'is required' }),
  events: z
    .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
    .min(1, { error: 'must name at least one event' })
    .optional(),
});

const summaryFields = { id: true, url: true, events: true, enabled: true, createdAt: true, previousSecret: true, previousSecretExpiresAt: true } as const;

type SummaryRow = { id: string; url: string; events: string; enabled: boolean; createdAt: Date; previousSecret: string | null; previousSecretExpiresAt: Date | null };

function toSummary({ previousSecret, previousSecretExpiresAt, ...row }: SummaryRow, now = currentDate()): WebhookEndpointSummary {
  const signsUntil = previousSecret !== null && previousSecretExpiresAt !== null && previousSecretExpiresAt > now ? previousSecretExpiresAt : null;
  return { ...row, events: row.events.split(',') as WebhookEventType[], previousSecretSignsUntil: signsUntil };
}

const notFound = (id: string) => new ApiError('webhook_not_found', `No webhook endpoint has id ${id}`);

const isRecordNotFound = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2025';

function audit(tx: Transaction, entry: AuditEntry, context: ChangeContext): Promise<void> {
  return insertAuditRows(tx, [auditRow(entry, context)]);
}

/**
 * Makes an endpoint after checking its URL (form, and where it resolves: see guard.ts). The
 * secret is returned here only: show it once.
 */
export async function createWebhookEndpoint(
  input: { url: string; events?: readonly string[] },
  context: ChangeContext,
): Promise<{ endpoint: WebhookEndpointSummary; secret: string }> {
  const parsed = parseWith(NewWebhookEndpoint, input);
  const url = parseWebhookUrl(parsed.url);
  await checkDestination(url);
  // In the order the events are listed, each once.
  const events = WEBHOOK_EVENT_TYPES.filter((type) => (parsed.events ?? WEBHOOK_EVENT_TYPES).includes(type));
  const secret = newSigningSecret();
  const data = { id: randomId('wh_'), url: url.href, secret: sealSecret(secret), events: events.join(','), enabled: true, createdAt: new Date() };
  const endpoint = await db().$transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({ data, select: summaryFields });
    await audit(tx, { action: 'webhook.created', target: { type: 'webhook', id: data.id }, after: { url: data.url, events, enabled: true } }, context);
    return created;
  });
  return { endpoint: toSummary(endpoint), secret };
}

export async function listWebhookEndpoints(): Promise<WebhookEndpointSummary[]> {
  const rows = await db().webhookEndpoint.findMany({ orderBy: { createdAt: 'asc' }, select: summaryFields });
  return rows.map((row) => toSummary(row));
}

// Attempts at a rotation while others of the same endpoint keep overtaking it.
const ROTATION_ATTEMPTS = 3;

/**
 * Gives an endpoint a new signing secret, returned here only: show it once. The secret it had keeps
 * signing each delivery beside the new one until `previousSecretSignsUntil` (WEBHOOK_SECRET_GRACE
 * from now), so the receiver can switch without a gap. Only the newest two sign: rotating again
 * within the grace period drops the oldest. A secret that can no longer be opened (sealed under
 * another AUTH_SECRET) is dropped rather than kept: it could not sign.
 */
export async function rotateWebhookSecret(
  id: string,
  context: ChangeContext,
): Promise<{ endpoint: WebhookEndpointSummary; secret: string; previousSecretSignsUntil: Date | null }> {
  const graceMs = secretGraceMs();
  const secret = newSigningSecret();
  for (let attempt = 1; attempt <= ROTATION_ATTEMPTS; attempt++) {
    const current = await db().webhookEndpoint.findUnique({ where: { id }, select: { secret: true } });
    if (!current) throw notFound(id);
    const now = currentDate();
    const previousSecret = graceMs > 0 ? stillSigning(current.secret) : null;
    const previousSecretExpiresAt = previousSecret === null ? null : new Date(now.getTime() + graceMs);
    // Only over the secret read above: a rotation made meanwhile is not undone, this one is made again over it.
    const endpoint = await db().$transaction(async (tx) => {
      const { count } = await tx.webhookEndpoint.updateMany({
        where: { id, secret: current.secret },
        data: { secret: sealSecret(secret), previousSecret, previousSecretExpiresAt },
      });
      if (count === 0) return null;
      const after = { previousSecretSignsUntil: previousSecretExpiresAt?.toISOString() ?? null };
      await audit(tx, { action: 'webhook.secret_rotated', target: { type: 'webhook', id }, after }, context);
      return tx.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: summaryFields });
    });
    if (endpoint) {
      const summary = toSummary(endpoint, now);
      return { endpoint: summary, secret, previousSecretSignsUntil: summary.previousSecretSignsUntil };
    }
  }
  throw new ApiError('validation_failed', 'The secret of this endpoint is being rotated by someone else right now: reload the page and try again');
}

/** What of a secret rotated out still signs: the secret, sealed; none when it cannot be opened. */
function stillSigning(stored: string): string | null {
  try {
    openSecret(stored);
  } catch (error) {
    if (error instanceof UnreadableSecretError) return null;
    throw error;
  }
  return isPlainSecret(stored) ? sealSecret(stored) : stored;
}

/** Stops (or resumes) deliveries to an endpoint; what is already owed to it waits while it is disabled. */
export async function setWebhookEndpointEnabled(id: string, enabled: boolean, context: ChangeContext): Promise<WebhookEndpointSummary> {
  const endpoint = await db().$transaction(async (tx) => {
    const { count } = await tx.webhookEndpoint.updateMany({ where: { id, enabled: !enabled }, data: { enabled } });
    const current = await tx.webhookEndpoint.findUnique({ where: { id }, select: summaryFields });
    if (!current) throw notFound(id);
    if (count === 1) {
      const action = enabled ? 'webhook.enabled' : 'webhook.disabled';
      await audit(tx, { action, target: { type: 'webhook', id }, before: { enabled: !enabled }, after: { enabled } }, context);
    }
    return current;
  });
  // Enabling may make waiting deliveries due.
  if (enabled) deliverSoon();
  return toSummary(endpoint);
}

/** Deletes an endpoint; deliveries still owed to it are dropped with it. */
export async function deleteWebhookEndpoint(id: string, context: ChangeContext): Promise<void> {
  try {
    await db().$transaction(async (tx) => {
      const deleted = await tx.webhookEndpoint.delete({ where: { id }, select: { url: true, events: true } });
      await audit(tx, { action: 'webhook.deleted', target: { type: 'webhook', id }, before: { url: deleted.url, events: deleted.events.split(',') } }, context);
    });
  } catch (error) {
    if (isRecordNotFound(error)) throw notFound(id);
    throw error;
  }
}

/** Sends a `webhook.test` event to one endpoint, through the outbox like any other. */
export async function sendTestEvent(id: string, context: ChangeContext): Promise<void> {
  const event = testEvent(id);
  await db().$transaction(async (tx) => {
    await insertOutboxRows(tx, [event]);
    const endpoint = await tx.webhookEndpoint.findUnique({ where: { id }, select: { enabled: true } });
    if (!endpoint) throw notFound(id);
    if (!endpoint.enabled) throw new ApiError('validation_failed', 'This endpoint is disabled: enable it first, then send a test event');
    await audit(tx, { action: 'webhook.test_sent', target: { type: 'webhook', id }, after: { messageId: event.id } }, context);
  });
  deliverSoon();
}

/** Gives a failed delivery a fresh retry schedule, starting now. */
export async function resendDelivery(deliveryId: string, context: ChangeContext): Promise<void> {
  await db().$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, status: 'failed' },
      data: { status: 'pending', retries: 0, nextAttemptAt: new Date() },
    });
    if (count === 0) throw new ApiError('delivery_not_found', `No failed webhook delivery has id ${deliveryId}`);
    const delivery = await tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, select: { endpointId: true, event: { select: { id: true } } } });
    await audit(
      tx,
      { action: 'webhook.delivery_resent', target: { type: 'webhook', id: delivery.endpointId }, after: { deliveryId, messageId: delivery.event.id } },
      context,
    );
  });
  deliverSoon();
}

/**
 * Whether some event still waits for the dispatcher to make its deliveries (a test event just sent,
 * say): until then the /webhooks page shows none for it, so the page follows on.
 */
export async function eventsAwaitDelivery(): Promise<boolean> {
  return (await db().webhookEvent.findFirst({ where: { fannedOut: false }, select: { seq: true } })) !== null;
}

/** An endpoint's newest deliveries, for the /webhooks page. */
export async function recentDeliveries(endpointId: string, take = 20): Promise<DeliverySummary[]> {
  const rows = await db().webhookDelivery.findMany({
    where: { endpointId },
    orderBy: { createdAt: 'desc' },
    take,
    include: { event: { select: { type: true, id: true } } },
  });
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpointId,
    eventType: row.event.type,
    messageId: row.event.id,
    plantId: row.plantId,
    status: row.status as DeliverySummary['status'],
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastDurationMs: row.lastDurationMs,
    lastError: row.lastError,
    lastAttemptAt: row.lastAttemptAt,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
  }));
}
