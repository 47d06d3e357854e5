// What a change leaves behind besides itself: its audit records and its webhook events. Both are
// written inside the change's own transaction, so every change is recorded where it happens; once
// it commits, the dispatcher is told there is something to deliver.
import 'server-only';
import { insertAuditRowsOnSqlite, type AuditRow } from './audit/records';
import type { Transaction } from './db/client';
import { prepared } from './db/sqlite-connection';
import { ANY_ENABLED_ENDPOINT, insertOutboxRowsOnSqlite, type OutboxRow } from './webhooks/outbox';
import { deliverSoon } from './webhooks/wake';

export type ChangeRecords = { audit: AuditRow[]; events: OutboxRow[] };

/**
 * Whether any webhook endpoint is enabled, read inside the change's transaction on SQLite's own
 * connection: one lookup per transaction decides whether its events are made at all.
 */
export function anyEnabledEndpointOnSqlite(): boolean {
  return prepared<[], { yes: bigint }>(`SELECT ${ANY_ENABLED_ENDPOINT} AS "yes"`).get()!.yes === 1n;
}

/** On SQLite's own connection, inside the change's synchronous transaction. */
export function writeChangeRecordsOnSqlite(records: ChangeRecords): void {
  insertOutboxRowsOnSqlite(records.events);
  insertAuditRowsOnSqlite(records.audit);
}

// Rows travel as one text array per column (unnest), as the plant store's batch insert does: a
// few parameters for a whole chunk, however many plants it changed. Timestamps are UTC text cast
// to the `timestamp` columns, which ignore a zone, so the stored value is the same whatever the
// session's time zone; ids are cast from text, so none passes through a JavaScript number.
const INSERT_EVENTS = `INSERT INTO "WebhookEvent" ("id", "type", "plantId", "endpointId", "payload", "createdAt", "fannedOut")
  SELECT "id", "type", "plantId"::bigint, "endpointId", "payload", "createdAt"::timestamp(3), false
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS row("id", "type", "plantId", "endpointId", "payload", "createdAt")
  WHERE ${ANY_ENABLED_ENDPOINT}`;
const INSERT_AUDIT = `INSERT INTO "AuditEvent" ("at", "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after")
  SELECT "at"::timestamp(3), "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after"
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
    AS row("at", "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after")`;

const column = <Row, Value>(rows: Row[], value: (row: Row) => Value) => rows.map(value);

/**
 * On PostgreSQL, inside the change's transaction: the events in one statement and the audit
 * records in another, whatever the number of plants a batch chunk changed.
 */
export async function insertChangeRecordsOnPostgresql(tx: Pick<Transaction, '$executeRawUnsafe'>, records: ChangeRecords): Promise<void> {
  const { events, audit } = records;
  if (events.length > 0) {
    await tx.$executeRawUnsafe(
      INSERT_EVENTS,
      column(events, (event) => event.id),
      column(events, (event) => event.type),
      column(events, (event) => event.plantId?.toString() ?? null),
      column(events, (event) => event.endpointId),
      column(events, (event) => event.payload),
      column(events, (event) => event.createdAt.toISOString()),
    );
  }
  if (audit.length > 0) {
    await tx.$executeRawUnsafe(
      INSERT_AUDIT,
      column(audit, (row) => row.at.toISOString()),
      column(audit, (row) => row.action),
      column(audit, (row) => row.actorType),
      column(audit, (row) => row.actorId),
      column(audit, (row) => row.actorName),
      column(audit, (row) => row.targetType),
      column(audit, (row) => row.targetId),
      column(audit, (row) => row.requestId),
      column(audit, (row) => row.clientAddress),
      column(audit, (row) => row.before),
      column(audit, (row) => row.after),
    );
  }
}

/** After the change's transaction committed: events, if it wrote any, go out now. */
export function changeCommitted(records: ChangeRecords | undefined): void {
  if (records && records.events.length > 0) deliverSoon();
}
