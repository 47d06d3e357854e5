// What is kept, and for how long. Audit records: everything, unless AUDIT_RETENTION_DAYS says how
// many days; webhook deliveries and their events: WEBHOOK_HISTORY_DAYS after they were made, once
// nothing is owed on them; sent and given-up messages of the mail outbox (their text already blanked):
// MAIL_HISTORY_DAYS after they finished. Pruning runs daily, in chunks, so a large first prune never holds the
// database for long.
import 'server-only';
import { db } from './db/client';
import { log } from './log';
import { processWide } from './process-wide';
import { settings } from './settings';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Delivered (or failed) webhook deliveries, and their events, stay this long for the /webhooks page. */
export const WEBHOOK_HISTORY_DAYS = 30;
/** Sent (or given up) messages, without their text, stay this long: who was sent what, and when. */
export const MAIL_HISTORY_DAYS = 30;
const CHUNK = 5000;

/**
 * Deletes rows older than `before`, oldest first, a chunk at a time. Rows are stored in about the
 * order of their time, so this walks the primary key from its start (no index on the time is kept
 * for it: each would cost every change a write) and stops at the first newer row.
 */
async function pruneOldest(
  oldest: (take: number) => Promise<{ seq: number; at: Date }[]>,
  remove: (seqs: number[]) => Promise<number>,
  before: Date,
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await oldest(CHUNK);
    const old = rows.filter((row) => row.at < before).map((row) => row.seq);
    if (old.length > 0) total += await remove(old);
    if (old.length < CHUNK) return total;
  }
}

export async function pruneExpired(now = new Date()): Promise<{ auditEvents: number; deliveries: number; events: number; messages: number }> {
  const days = settings().AUDIT_RETENTION_DAYS;
  let auditEvents = 0;
  if (days !== null) {
    auditEvents = await pruneOldest(
      (take) => db().auditEvent.findMany({ orderBy: { seq: 'asc' }, take, select: { seq: true, at: true } }),
      async (seqs) => (await db().auditEvent.deleteMany({ where: { seq: { in: seqs } } })).count,
      new Date(now.getTime() - days * DAY_MS),
    );
  }
  const historyBefore = new Date(now.getTime() - WEBHOOK_HISTORY_DAYS * DAY_MS);
  // A finished delivery's nextAttemptAt is when it finished (index on status and nextAttemptAt).
  let deliveries = 0;
  for (;;) {
    const old = await db().webhookDelivery.findMany({
      where: { status: { in: ['succeeded', 'failed'] }, nextAttemptAt: { lt: historyBefore } },
      select: { id: true },
      take: CHUNK,
    });
    if (old.length > 0) deliveries += (await db().webhookDelivery.deleteMany({ where: { id: { in: old.map((row) => row.id) } } })).count;
    if (old.length < CHUNK) break;
  }
  // Events that were fanned out and have no delivery left.
  const events = await pruneOldest(
    async (take) =>
      (
        await db().webhookEvent.findMany({
          where: { fannedOut: true, deliveries: { none: {} } },
          orderBy: { seq: 'asc' },
          take,
          select: { seq: true, createdAt: true },
        })
      ).map((row) => ({ seq: row.seq, at: row.createdAt })),
    async (seqs) => (await db().webhookEvent.deleteMany({ where: { seq: { in: seqs } } })).count,
    historyBefore,
  );
  const { count: messages } = await db().mailMessage.deleteMany({
    where: { finishedAt: { lt: new Date(now.getTime() - MAIL_HISTORY_DAYS * DAY_MS) } },
  });
  return { auditEvents, deliveries, events, messages };
}

const schedule = processWide('retention-schedule', () => ({ timer: undefined as NodeJS.Timeout | undefined }));

/** In a long-running server: prune now, then once a day. */
export function pruneDaily(): void {
  if (schedule.timer) return;
  const prune = () =>
    pruneExpired().then(
      (pruned) => {
        if (pruned.auditEvents + pruned.deliveries + pruned.events + pruned.messages > 0) log.info('pruned old records', pruned);
      },
      (error: unknown) => log.error('pruning old records failed', { error: error instanceof Error ? error.message : String(error) }),
    );
  schedule.timer = setInterval(prune, DAY_MS);
  schedule.timer.unref();
  void prune();
}
