// How webhook deliveries are going, for the dashboard and `GET /stats`: what finished in the last
// 24 hours, and what is still waiting. A delivery's `nextAttemptAt` is when it finished once it has
// (prisma/schema.prisma), so the (status, nextAttemptAt) index answers each count.
import 'server-only';
import { db } from '../db/client';

export type WebhookHealth = { succeeded: number; failed: number; pending: number; oldestPendingAt: Date | null };

const DAY_MS = 24 * 60 * 60 * 1000;

export async function webhookHealth(now = new Date()): Promise<WebhookHealth> {
  const since = new Date(now.getTime() - DAY_MS);
  const open = { status: { in: ['pending', 'delivering'] } };
  const [succeeded, failed, pending, oldest] = await Promise.all([
    db().webhookDelivery.count({ where: { status: 'succeeded', nextAttemptAt: { gte: since } } }),
    db().webhookDelivery.count({ where: { status: 'failed', nextAttemptAt: { gte: since } } }),
    db().webhookDelivery.count({ where: open }),
    db().webhookDelivery.findFirst({ where: open, orderBy: { createdAt: 'asc' }, select: { createdAt: true } }),
  ]);
  return { succeeded, failed, pending, oldestPendingAt: oldest?.createdAt ?? null };
}
