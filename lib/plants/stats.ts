// The catalogue's figures (`GET /stats` and the dashboard): totals, plants added per day over a
// range ending today (UTC), and the largest tags. The engines count; this fills in the days
// without plants and sums what the counts imply, once for both.
import 'server-only';
import { engine } from '../db/engine';
import { STATS_TOP_TAGS, type Stats } from '../schemas/stats';
import type { WebhookHealth } from '../webhooks/health';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The figures over the last `days` days, today included; `webhooks` when the caller may see them. */
export async function plantStats(options: { days: number; now?: Date; webhooks?: () => Promise<WebhookHealth> }): Promise<Stats> {
  const now = options.now ?? new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: options.days }, (_, index) => dayOf(today - (options.days - 1 - index) * DAY_MS));
  const [rows, webhooks] = await Promise.all([engine().plants.stats({ since: days[0], topTags: STATS_TOP_TAGS }), options.webhooks?.()]);
  const added = new Map(rows.perDay.map((row) => [row.day, row.count]));
  const addedPerDay = days.map((date) => ({ date, count: added.get(date) ?? 0 }));
  const named = rows.tags.reduce((sum, tag) => sum + tag.count, 0);
  return {
    total: rows.total,
    addedToday: addedPerDay[addedPerDay.length - 1].count,
    addedLast7Days: addedPerDay.slice(-7).reduce((sum, day) => sum + day.count, 0),
    addedPerDay,
    tags: rows.tags,
    otherTags: rows.tagged - named,
    untagged: rows.total - rows.tagged,
    ...(webhooks && {
      webhooks: { ...webhooks, oldestPendingAt: webhooks.oldestPendingAt?.toISOString() ?? null },
    }),
  };
}
