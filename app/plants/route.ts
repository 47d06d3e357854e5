import { requestContext } from '@/lib/audit/context';
import { readJsonObject } from '@/lib/http/body';
import { nextPageHeaders } from '@/lib/http/pagination';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/shared/validation';
import { plantEtag } from '@/lib/plants/etag';
import { createPlant, listAndCountPlants, listPlants } from '@/lib/plants/service';
import { LIST_LIMIT_DEFAULT, ListPlantsQuery } from '@/lib/schemas/list';
import { NewPlant } from '@/lib/schemas/plant';

export const POST = withAuth('plants:write', async (request, context) => {
  const input = parseWith(NewPlant, await readJsonObject(request));
  const { plant, created } = await createPlant(input, await requestContext(request, context));
  return json(plant, { headers: { ETag: plantEtag(plant), ...(created ? {} : { 'Idempotent-Replayed': 'true' }) } });
});

export const GET = withAuth('plants:read', async (request) => {
  const url = new URL(request.url);
  const query = parseWith(ListPlantsQuery, Object.fromEntries(url.searchParams), 'invalid_parameter');
  const options = { q: query.q, tag: query.tag, limit: query.limit ?? LIST_LIMIT_DEFAULT, cursor: query.cursor, sort: query.sort };
  if (query.count !== 'true') {
    const page = await listPlants(options);
    return json(page.plants, { headers: nextPageHeaders(url, page.nextCursor) });
  }
  const page = await listAndCountPlants(options);
  return json(page.plants, { headers: { ...nextPageHeaders(url, page.nextCursor), 'X-Total-Count': String(page.total) } });
});

export const PUT = methodNotAllowed(['GET', 'HEAD', 'POST']);
export const PATCH = PUT;
export const DELETE = PUT;
