// The transactional outbox: each event is a row written in the same transaction as the change it
// reports, so a change is never stored without its event, nor an event sent for a change that was
// rolled back. The dispatcher (dispatcher.ts) delivers the rows afterwards.
import 'server-only';
import type { Transaction } from '../db/client';
import { prepared, toSqliteTime } from '../db/sqlite-connection';
import { stringifyJson } from '../shared/json';
import { randomId } from '../ids';
import type { Plant } from '../schemas/plant';
import { TEST_EVENT_TYPE, type WebhookEventType } from './event-types';

export type OutboxRow = {
  /** The `webhook-id` every attempt carries: receivers use it to drop duplicates. */
  id: string;
  type: string;
  plantId: bigint | null;
  endpointId: string | null;
  /** The exact body every attempt sends (and signs). */
  payload: string;
  createdAt: Date;
};

const newMessageId = () => randomId('msg_', 24);

/**
 * A plant event. Its body is `{"type", "timestamp", "data"}` with `data` the API's Plant JSON,
 * written with exact int64 ids; for plant.deleted, the plant as it was.
 */
export function plantEvent(type: WebhookEventType, plant: Plant, at = new Date()): OutboxRow {
  const timestamp = at.toISOString();
  return { id: newMessageId(), type, plantId: plant.id, endpointId: null, payload: stringifyJson({ type, timestamp, data: plant }), createdAt: at };
}

/** A test event for one endpoint: the same envelope, with data that says what it is. */
export function testEvent(endpointId: string, at = new Date()): OutboxRow {
  const data = { endpointId, message: 'A test event from Plant Store: this endpoint receives signed webhooks.' };
  const payload = stringifyJson({ type: TEST_EVENT_TYPE, timestamp: at.toISOString(), data });
  return { id: newMessageId(), type: TEST_EVENT_TYPE, plantId: null, endpointId, payload, createdAt: at };
}

export async function insertOutboxRows(tx: Transaction, rows: OutboxRow[]): Promise<void> {
  if (rows.length > 0) await tx.webhookEvent.createMany({ data: rows });
}

/**
 * A plant's event is kept only while some endpoint is enabled to hear of it: with none, a store
 * writes no outbox at all. Checked in the statement that writes the event, inside the change's
 * transaction, so it is what the database holds at that moment, not a cached list; an endpoint
 * saved later hears of later changes only, which is the rule anyway (delivery-store.ts).
 */
export const ANY_ENABLED_ENDPOINT = 'EXISTS (SELECT 1 FROM "WebhookEndpoint" WHERE "enabled")';

const INSERT_SQLITE =
  'INSERT INTO "WebhookEvent" ("id", "type", "plantId", "endpointId", "payload", "createdAt", "fannedOut") VALUES (?, ?, ?, ?, ?, ?, 0)';

/**
 * On SQLite's own connection, inside that connection's transaction: a plant change's events (made
 * only when anyEnabledEndpointOnSqlite said so in the same transaction).
 */
export function insertOutboxRowsOnSqlite(rows: OutboxRow[]): void {
  const statement = prepared<unknown[]>(INSERT_SQLITE);
  for (const row of rows) statement.run(row.id, row.type, row.plantId, row.endpointId, row.payload, toSqliteTime(row.createdAt));
}
