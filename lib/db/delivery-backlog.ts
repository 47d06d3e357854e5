// The webhook backlog for the metrics (plant_store_webhook_deliveries_pending and the age of the
// oldest): one read at scrape time, through Prisma's query API, so it is written once for both
// engines. Off the hot path (a scrape every few seconds at most); the status index narrows it to
// the open deliveries. Deliveries to a disabled endpoint wait until it is enabled again and are
// left out: an operator who turned an endpoint off should not be paged for its queue.
import 'server-only';
import type { Client } from './prisma';
import type { DeliveryBacklog } from './stores';

/** The backlog, read through the engine's Prisma client. */
export async function deliveryBacklog(prisma: Client): Promise<DeliveryBacklog> {
  const found = await prisma.webhookDelivery.aggregate({
    where: { status: { in: ['pending', 'delivering'] }, endpoint: { enabled: true } },
    _count: { _all: true },
    _min: { createdAt: true },
  });
  return { pending: found._count._all, oldestCreatedAt: found._min.createdAt ?? null };
}
