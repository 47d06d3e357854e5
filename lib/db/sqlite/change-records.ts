// A plant change's audit records and webhook events on SQLite, as prepared statements on SQLite's own
// connection, inside the change's synchronous transaction (the plant store's changePlants,
// lib/db/plant-store.ts). Why not Prisma: they are part of every create on the API's hot path, and
// of every plant of a batch (docs/performance.md#the-api-on-sqlite).
import 'server-only';
import { ASK_ANY_ENABLED_ENDPOINT, AUDIT_COLUMNS, OUTBOX_COLUMNS } from '../shared-sql';
import type { AuditRow, ChangeRecordStore } from '../stores';
import { prepared, toSqliteTime } from './connection';

const INSERT_EVENT = `INSERT INTO "WebhookEvent" (${OUTBOX_COLUMNS}, "fannedOut") VALUES (?, ?, ?, ?, ?, ?, ?, 0)`;
export const INSERT_AUDIT = `INSERT INTO "AuditEvent" (${AUDIT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** An audit record's values, in INSERT_AUDIT's order. */
export const auditValues = (row: AuditRow): unknown[] => [
  toSqliteTime(row.at),
  row.action,
  row.actorType,
  row.actorId,
  row.actorName,
  row.targetType,
  row.targetId,
  row.requestId,
  row.clientAddress,
  row.before,
  row.after,
];

// One lookup per transaction decides whether its events are made at all.
export const sqliteChangeRecords: ChangeRecordStore<void> = {
  eventsWanted: () => prepared<[], { yes: bigint }>(ASK_ANY_ENABLED_ENDPOINT).get()!.yes === 1n,
  write(_tx, { events, audit }) {
    const insertEvent = prepared<unknown[]>(INSERT_EVENT);
    for (const row of events) insertEvent.run(row.id, row.type, row.plantId, row.endpointId, row.payload, toSqliteTime(row.createdAt), row.traceparent);
    const insertAudit = prepared<unknown[]>(INSERT_AUDIT);
    for (const row of audit) insertAudit.run(...auditValues(row));
    // Events reach here only when eventsWanted said so: every one is kept.
    return events.length;
  },
};
