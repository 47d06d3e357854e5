// Audit records as rows, and how they are written off the hot path: through Prisma, inside the
// transaction of the change they record (insertAuditRows), or on their own (recordAudit). A plant
// change's records are written by its engine's plant store instead, in its own statements
// (ChangeRecordStore in lib/db/stores.ts).
import 'server-only';
import { db, type Transaction } from '../db/client';
import type { AuditRow } from '../db/stores';
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
  await insertAuditRows(db(), [auditRow(entry, context)]);
}

/** Writes audit records through Prisma, inside `tx`'s transaction (or on their own, given db()). */
export async function insertAuditRows(tx: Transaction, rows: AuditRow[]): Promise<void> {
  if (rows.length > 0) await tx.auditEvent.createMany({ data: rows });
}
