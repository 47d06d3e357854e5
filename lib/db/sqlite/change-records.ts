// A plant change's audit records and webhook events on SQLite, as prepared statements on the
// connection of the change's transaction (the plant store's changePlants, lib/db/plant-store.ts).
// Why not Prisma: they are part of every create on the API's hot path, and of every plant of a
// batch (docs/performance.md#the-api-on-sqlite).
import 'server-only';
import { ASK_ANY_ENABLED_ENDPOINT, AUDIT_COLUMNS, OUTBOX_COLUMNS } from '../shared-sql';
import type { AuditRow, ChangeRecordStore, MaybePromise } from '../stores';
import { toSqliteTime, type SqliteTransaction } from './connection';

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
export const sqliteChangeRecords: ChangeRecordStore<SqliteTransaction> = {
  eventsWanted: (tx) => tx.prepared<[], { yes: bigint }>(ASK_ANY_ENABLED_ENDPOINT).get()!.yes === 1n,
  write(tx, { events, audit }) {
    const insertEvent = tx.prepared<unknown[]>(INSERT_EVENT);
    const insertAudit = tx.prepared<unknown[]>(INSERT_AUDIT);
    // Events first, then audit records; in a long transaction, with pauses between rows.
    const writeFrom = (start: number): MaybePromise<number> => {
      for (let index = start; index < events.length + audit.length; index++) {
        if (index < events.length) {
          const row = events[index];
          insertEvent.run(row.id, row.type, row.plantId, row.endpointId, row.payload, toSqliteTime(row.createdAt), row.traceparent);
        } else {
          insertAudit.run(...auditValues(audit[index - events.length]));
        }
        const paused = tx.pause();
        if (paused) return paused.then(() => writeFrom(index + 1));
      }
      // Events reach here only when eventsWanted said so: every one is kept.
      return events.length;
    };
    return writeFrom(0);
  },
};
