// The transactional outbox: each event is a row written in the same transaction as the change it
// reports, so a change is never stored without its event, nor an event sent for a change that was
// rolled back. The dispatcher (dispatcher.ts) delivers the rows afterwards.
import 'server-only';
import type { Transaction } from '../db/client';
import type { OutboxRow } from '../db/stores';
import { randomId } from '../ids';
import { stringifyJson } from '../shared/json';
import type { Plant } from '../schemas/plant';
import { currentTraceparent } from '../tracing/spans';
import { TEST_EVENT_TYPE, type WebhookEventType } from './event-types';

const newMessageId = () => randomId('msg_', 24);

/**
 * A plant event. Its body is `{"type", "timestamp", "data"}` with `data` the API's Plant JSON,
 * written with exact int64 ids; for plant.deleted, the plant as it was.
 */
export function plantEvent(type: WebhookEventType, plant: Plant, at = new Date(), traceparent: string | null = null): OutboxRow {
  const timestamp = at.toISOString();
  const payload = stringifyJson({ type, timestamp, data: plant });
  return { id: newMessageId(), type, plantId: plant.id, endpointId: null, payload, createdAt: at, traceparent };
}

/** A test event for one endpoint: the same envelope, with data that says what it is. */
export function testEvent(endpointId: string, at = new Date()): OutboxRow {
  const data = { endpointId, message: 'A test event from Plant Store: this endpoint receives signed webhooks.' };
  const payload = stringifyJson({ type: TEST_EVENT_TYPE, timestamp: at.toISOString(), data });
  return { id: newMessageId(), type: TEST_EVENT_TYPE, plantId: null, endpointId, payload, createdAt: at, traceparent: currentTraceparent() };
}

/**
 * Writes events through Prisma, inside `tx`'s transaction (a test event). A plant change's events are
 * written by its engine's plant store instead, in its own statements (ChangeRecordStore in
 * lib/db/stores.ts).
 */
export async function insertOutboxRows(tx: Transaction, rows: OutboxRow[]): Promise<void> {
  if (rows.length > 0) await tx.webhookEvent.createMany({ data: rows });
}
