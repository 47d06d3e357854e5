// Audit records as rows, and the two ways they are written: through Prisma inside a transaction
// (PostgreSQL, and every change that is not on SQLite's hot path), or as a prepared statement on
// SQLite's own connection inside its synchronous transaction (lib/db/sqlite-connection.ts).
import 'server-only';
import { db, type Transaction } from '../db/client';
import { prepared, toSqliteTime } from '../db/sqlite-connection';
import { stringifyJson } from '../shared/json';
import type { AuditAction, AuditTargetType } from './actions';
import type { ChangeContext } from './context';

export type AuditEntry = {
  action: AuditAction;
  target: { type: AuditTargetType; id: string };
  /** The fields before and after the change (plain JSON values; ids may be bigint). */
  before?: unknown;
  after?: unknown;
};

export type AuditRow = {
  at: Date;
  action: string;
  actorType: string;
  actorId: string | null;
  actorName: string | null;
  targetType: string;
  targetId: string;
  requestId: string | null;
  clientAddress: string | null;
  before: string | null;
  after: string | null;
};

export function auditRow(entry: AuditEntry, context: ChangeContext, at = new Date()): AuditRow {
  const { actor } = context;
  return {
    at,
    action: entry.action,
    actorType: actor.type,
    actorId: 'id' in actor ? (actor.id ?? null) : null,
    actorName: actor.name,
    targetType: entry.target.type,
    targetId: entry.target.id,
    requestId: context.requestId ?? null,
    clientAddress: context.clientAddress ?? null,
    before: entry.before === undefined ? null : stringifyJson(entry.before),
    after: entry.after === undefined ? null : stringifyJson(entry.after),
  };
}

/** A record of something that changes nothing else in the database (a sign-in). */
export async function recordAudit(entry: AuditEntry, context: ChangeContext): Promise<void> {
  await db().auditEvent.create({ data: auditRow(entry, context), select: { seq: true } });
}

export async function insertAuditRows(tx: Transaction, rows: AuditRow[]): Promise<void> {
  if (rows.length > 0) await tx.auditEvent.createMany({ data: rows });
}

const INSERT_SQLITE =
  'INSERT INTO "AuditEvent" ("at", "action", "actorType", "actorId", "actorName", "targetType", "targetId", "requestId", "clientAddress", "before", "after") ' +
  'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';

/** On SQLite's own connection; call it inside that connection's transaction. */
export function insertAuditRowsOnSqlite(rows: AuditRow[]): void {
  const statement = prepared<unknown[]>(INSERT_SQLITE);
  for (const row of rows) {
    statement.run(
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
    );
  }
}
