import { requestContext } from '@/lib/audit/context';
import { readJsonArray } from '@/lib/http/body';
import { ApiError } from '@/lib/errors';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { createPlants } from '@/lib/plants/batch';
import { BATCH_BODY_LIMIT_BYTES, BATCH_JSON_VALUES_LIMIT } from '@/lib/schemas/batch';
import { BATCH_MAX_ITEMS } from '@/lib/schemas/limits';

export const POST = withAuth('plants:write', async (request, context) => {
  const items = await readJsonArray(request, { limitBytes: BATCH_BODY_LIMIT_BYTES, maxValues: BATCH_JSON_VALUES_LIMIT });
  if (items.length > BATCH_MAX_ITEMS) {
    throw new ApiError('too_many_items', `A batch may hold at most ${BATCH_MAX_ITEMS} plants, not ${items.length}: split it`);
  }
  return json({ results: await createPlants(items, await requestContext(request, context)) });
});

export const GET = methodNotAllowed(['POST']);
export const PUT = GET;
export const PATCH = GET;
export const DELETE = GET;
