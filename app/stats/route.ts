import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { plantStats } from '@/lib/plants/stats';
import { parseWith } from '@/lib/shared/validation';
import { STATS_RANGE_DEFAULT, StatsQuery } from '@/lib/schemas/stats';
import { webhookHealth } from '@/lib/webhooks/health';

export const GET = withAuth('plants:read', async (request, context) => {
  const query = parseWith(StatsQuery, Object.fromEntries(new URL(request.url).searchParams), 'invalid_parameter');
  const stats = await plantStats({
    days: query.days ? Number(query.days) : STATS_RANGE_DEFAULT,
    // Webhook figures only for those who manage webhooks.
    webhooks: context.principal.scopes.includes('webhooks:manage') ? () => webhookHealth() : undefined,
  });
  return json(stats);
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
