// A plant change's audit records and webhook events on PostgreSQL, written inside the change's
// transaction (the plant store's changePlants, lib/db/plant-store.ts): events and audit records in
// one statement, whatever the number of plants a batch chunk changed. Why raw SQL: the statement
// decides inside itself whether any endpoint is enabled, which Prisma's query API cannot say, so a
// change's records cost one round trip whatever its size, as its plants cost one (and a large
// change one more, to ask first whether events are wanted at all: ASK_FIRST_FROM_CHANGES).
import 'server-only';
import { ANY_ENABLED_ENDPOINT, ASK_ANY_ENABLED_ENDPOINT, AUDIT_COLUMNS, OUTBOX_COLUMNS } from '../shared-sql';
import type { ChangeRecordStore } from '../stores';
import type { Queryable } from './direct';

// Rows travel as one text array per column (unnest), as the plant store's batch insert does: a
// few parameters for a whole chunk, however many plants it changed. Timestamps are UTC text cast
// to the `timestamp` columns, which ignore a zone, so the stored value is the same whatever the
// session's time zone; ids are cast from text, so none passes through a JavaScript number. Events
// and audit records go in one statement, one round trip; the events are kept only while an
// endpoint is enabled, and the statement answers how many it kept.
const EVENT_ROWS = `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS row(${OUTBOX_COLUMNS})`;
const AUDIT_ROWS = `unnest($8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[])
    AS row(${AUDIT_COLUMNS})`;
const INSERT_RECORDS = `WITH "events" AS (
    INSERT INTO "WebhookEvent" (${OUTBOX_COLUMNS}, "fannedOut")
    SELECT "id", "type", "plantId"::bigint, "endpointId", "payload", "createdAt"::timestamp(3), "traceparent", false
    FROM ${EVENT_ROWS}
    WHERE ${ANY_ENABLED_ENDPOINT}
    RETURNING 1
  ),
  "audit" AS (
    INSERT INTO "AuditEvent" (${AUDIT_COLUMNS})
    SELECT "at"::timestamp(3), "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after"
    FROM ${AUDIT_ROWS}
  )
  SELECT count(*)::int AS "events" FROM "events"`;

// A change of fewer plants than this sends its events and lets the statement decide: a round trip
// to ask first costs more than a few events' bytes. A larger one (a batch's chunk of 250) asks
// first, so that while no endpoint is enabled its events are neither built nor sent: batches of
// 1,000 with one client stored more plants a second asking first
// (docs/performance.md#the-catalogue-on-100000-plants).
const ASK_FIRST_FROM_CHANGES = 8;

const column = <Row, Value>(rows: Row[], value: (row: Row) => Value) => rows.map(value);

export const postgresqlChangeRecords: ChangeRecordStore<Queryable> = {
  async eventsWanted(tx, changes) {
    if (changes < ASK_FIRST_FROM_CHANGES) return true;
    const [row] = await tx.$queryRawUnsafe<{ yes: boolean }[]>(ASK_ANY_ENABLED_ENDPOINT);
    return row.yes;
  },
  async write(tx, { events, audit }) {
    if (events.length === 0 && audit.length === 0) return 0;
    const [row] = await tx.$queryRawUnsafe<{ events: number }[]>(
      INSERT_RECORDS,
      column(events, (event) => event.id),
      column(events, (event) => event.type),
      column(events, (event) => event.plantId?.toString() ?? null),
      column(events, (event) => event.endpointId),
      column(events, (event) => event.payload),
      column(events, (event) => event.createdAt.toISOString()),
      column(events, (event) => event.traceparent),
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
    return row.events;
  },
};
