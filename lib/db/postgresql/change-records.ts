// A plant change's audit records and webhook events on PostgreSQL, written inside the change's
// transaction (the plant store's changePlants, lib/db/plant-store.ts): the events in one statement
// and the audit records in another, whatever the number of plants a batch chunk changed. Why raw
// SQL: the events statement decides inside itself whether any endpoint is enabled, which Prisma's
// query API cannot say, so a chunk's records cost two round trips whatever its size, as its plants
// cost one; batches store 6,993 plants/s with one client (docs/performance.md, The catalogue on
// 100,000 plants).
import 'server-only';
import type { Client } from '../client';
import { ANY_ENABLED_ENDPOINT, AUDIT_COLUMNS, OUTBOX_COLUMNS } from '../shared-sql';
import type { ChangeRecordStore } from '../stores';

/** What the plant statements and these need of a Prisma (transaction) client. */
export type Queryable = Pick<Client, '$queryRawUnsafe' | '$executeRawUnsafe'>;

// Rows travel as one text array per column (unnest), as the plant store's batch insert does: a
// few parameters for a whole chunk, however many plants it changed. Timestamps are UTC text cast
// to the `timestamp` columns, which ignore a zone, so the stored value is the same whatever the
// session's time zone; ids are cast from text, so none passes through a JavaScript number. The
// events statement keeps them only while an endpoint is enabled (one round trip either way).
const INSERT_EVENTS = `INSERT INTO "WebhookEvent" (${OUTBOX_COLUMNS}, "fannedOut")
  SELECT "id", "type", "plantId"::bigint, "endpointId", "payload", "createdAt"::timestamp(3), "traceparent", false
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS row(${OUTBOX_COLUMNS})
  WHERE ${ANY_ENABLED_ENDPOINT}`;
const INSERT_AUDIT = `INSERT INTO "AuditEvent" (${AUDIT_COLUMNS})
  SELECT "at"::timestamp(3), "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after"
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[])
    AS row(${AUDIT_COLUMNS})`;

const column = <Row, Value>(rows: Row[], value: (row: Row) => Value) => rows.map(value);

export const postgresqlChangeRecords: ChangeRecordStore<Queryable> = {
  // The events statement checks for an enabled endpoint itself.
  eventsWanted: () => true,
  async write(tx, { events, audit }) {
    if (events.length > 0) {
      await tx.$executeRawUnsafe(
        INSERT_EVENTS,
        column(events, (event) => event.id),
        column(events, (event) => event.type),
        column(events, (event) => event.plantId?.toString() ?? null),
        column(events, (event) => event.endpointId),
        column(events, (event) => event.payload),
        column(events, (event) => event.createdAt.toISOString()),
        column(events, (event) => event.traceparent),
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
  },
};
