import { readJsonObject } from '@/lib/http/body';
import { nextPageHeaders } from '@/lib/http/pagination';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/http/validation';
import { createPlant, listPlants } from '@/lib/plants/service';
import { LIST_LIMIT_DEFAULT, ListPlantsQuery } from '@/lib/schemas/list';
import { NewPlant } from '@/lib/schemas/plant';

export const POST = withAuth(async (request) => {
  const input = parseWith(NewPlant, await readJsonObject(request));
  const { plant, created } = await createPlant(input);
  return json(plant, { headers: created ? {} : { 'Idempotent-Replayed': 'true' } });
});

export const GET = withAuth(async (request) => {
  const url = new URL(request.url);
  const query = parseWith(ListPlantsQuery, Object.fromEntries(url.searchParams), 'invalid_parameter');
  const page = await listPlants({ limit: query.limit ?? LIST_LIMIT_DEFAULT, cursor: query.cursor });
  return json(page.plants, { headers: nextPageHeaders(url, page.nextCursor) });
});

export const PUT = methodNotAllowed(['GET', 'HEAD', 'POST']);
export const PATCH = PUT;
export const DELETE = PUT;
