// The catalogue's figures (`GET /stats`): how many plants, how they were added day by day, what
// they are tagged, and for those who manage webhooks how deliveries are going. Browser-safe.
import { z } from 'zod';

export const STATS_RANGES = ['30', '90'] as const;
export const STATS_RANGE_DEFAULT = 30;
/** The largest tags named one by one; the rest are summed as "other". */
export const STATS_TOP_TAGS = 10;

export const StatsQuery = z.object({
  days: z
    .enum(STATS_RANGES, { error: `must be one of ${STATS_RANGES.join(', ')}` })
    .optional()
    .meta({
      description: `How many days \`addedPerDay\` covers, ending today (UTC): 30 or 90, default ${STATS_RANGE_DEFAULT}.`,
      param: { schema: { type: 'string', enum: [...STATS_RANGES], default: String(STATS_RANGE_DEFAULT) } },
    }),
});
export type StatsQuery = z.infer<typeof StatsQuery>;

const count = z.number().int().min(0);

export const Stats = z
  .object({
    total: count.meta({ description: 'How many plants the store holds.' }),
    addedToday: count.meta({ description: 'Plants added today (UTC) that are still there.' }),
    addedLast7Days: count.meta({ description: 'Plants added in the last 7 days, today included, that are still there.' }),
    addedPerDay: z
      .array(z.object({ date: z.string().meta({ description: 'A day, `YYYY-MM-DD` (UTC).', example: '2026-11-26' }), count }))
      .meta({ description: 'Plants added each day of the range, still there, oldest day first; days without any are listed with 0.' }),
    tags: z
      .array(z.object({ tag: z.string(), count }))
      .meta({ description: `The ${STATS_TOP_TAGS} tags with the most plants, largest first (equal counts by tag).` }),
    otherTags: count.meta({ description: 'Plants whose tag is not one of `tags`.' }),
    untagged: count.meta({ description: 'Plants without a tag.' }),
    webhooks: z
      .object({
        succeeded: count.meta({ description: 'Deliveries that succeeded in the last 24 hours.' }),
        failed: count.meta({ description: 'Deliveries that failed for good in the last 24 hours.' }),
        pending: count.meta({ description: 'Deliveries waiting or being sent now.' }),
        oldestPendingAt: z.string().nullable().meta({ description: 'When the oldest waiting delivery was made (ISO 8601), or null.' }),
      })
      .optional()
      .meta({ description: 'Only for a caller with the `webhooks:manage` scope: the health of webhook deliveries.' }),
  })
  .meta({ id: 'Stats' });
export type Stats = z.infer<typeof Stats>;
