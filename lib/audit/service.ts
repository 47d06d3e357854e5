// Reading the audit trail: newest first, paged by an opaque cursor like /plants, filtered by
// action, actor and target.
import 'server-only';
import { db } from '../db/client';
import { parseJsonExact } from '../shared/json';
import { decodeCursor, encodeCursor } from '../shared/cursor';
import type { Actor, AuditAction, AuditTargetType } from './actions';
import type { AuditRow } from '../db/stores';

export type AuditRecord = {
  id: number;
  time: string;
  action: AuditAction;
  actor: Actor;
  target: { type: AuditTargetType; id: string };
  requestId?: string;
  clientAddress?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
};

export type AuditFilter = { action?: AuditAction; actor?: string; target?: string };

type Row = AuditRow & { seq: number };

function toRecord(row: Row): AuditRecord {
  const actor = (row.actorId === null ? { type: row.actorType, name: row.actorName ?? '' } : { type: row.actorType, id: row.actorId, name: row.actorName ?? '' }) as Actor;
  return {
    id: row.seq,
    time: row.at.toISOString(),
    action: row.action as AuditAction,
    actor,
    target: { type: row.targetType as AuditTargetType, id: row.targetId },
    ...(row.requestId === null ? {} : { requestId: row.requestId }),
    ...(row.clientAddress === null ? {} : { clientAddress: row.clientAddress }),
    // Stored as exact JSON text; read back with exact integers, so plant ids stay digit for digit.
    ...(row.before === null ? {} : { before: parseJsonExact(row.before) as Record<string, unknown> }),
    ...(row.after === null ? {} : { after: parseJsonExact(row.after) as Record<string, unknown> }),
  };
}

function whereOf(filter: AuditFilter) {
  const where: Record<string, unknown>[] = [];
  if (filter.action) where.push({ action: filter.action });
  if (filter.actor) {
    const actor = filter.actor.trim();
    where.push(
      actor === 'system'
        ? { actorType: 'system' }
        : { OR: [{ actorId: actor }, { actorName: actor.includes('@') ? actor.toLowerCase() : actor }] },
    );
  }
  if (filter.target) {
    const at = filter.target.indexOf(':');
    where.push({ targetType: filter.target.slice(0, at), targetId: filter.target.slice(at + 1) });
  }
  return { AND: where };
}

/** Records newest first; `nextCursor` continues where the page ends (null on the last page). */
export async function listAuditRecords(options: AuditFilter & { limit: number; cursor?: string }): Promise<{ records: AuditRecord[]; nextCursor: string | null }> {
  const before = options.cursor === undefined ? undefined : decodeCursor(options.cursor);
  const where = whereOf(options);
  if (before !== undefined) where.AND.push({ seq: { lt: before } });
  const rows = await db().auditEvent.findMany({ where, orderBy: { seq: 'desc' }, take: options.limit + 1 });
  const page = rows.slice(0, options.limit);
  return { records: page.map(toRecord), nextCursor: rows.length > options.limit ? encodeCursor(page[page.length - 1].seq) : null };
}
