import { requestContext } from '@/lib/audit/context';
import { readJsonObject } from '@/lib/http/body';
import { nextPageHeaders } from '@/lib/http/pagination';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/shared/validation';
import { plantEtag } from '@/lib/plants/etag';
import { countPlants, createPlant, listPlants } from '@/lib/plants/service';
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
  const filter = { q: query.q, tag: query.tag };
  const [page, total] = await Promise.all([
    listPlants({ ...filter, limit: query.limit ?? LIST_LIMIT_DEFAULT, cursor: query.cursor, sort: query.sort }),
    query.count === 'true' ? countPlants(filter) : undefined,
  ]);
  const headers = nextPageHeaders(url, page.nextCursor);
  return json(page.plants, { headers: total === undefined ? headers : { ...headers, 'X-Total-Count': String(total) } });
});

export const PUT = methodNotAllowed(['GET', 'HEAD', 'POST']);
export const PATCH = PUT;
export const DELETE = PUT;
