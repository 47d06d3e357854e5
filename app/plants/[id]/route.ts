import { requestContext } from '@/lib/audit/context';
import { readJsonObject } from '@/lib/http/body';
import { ifMatchOf, ifNoneMatchOf } from '@/lib/http/conditional';
import { matchesWeakly } from '@/lib/shared/entity-tags';
import { json, noContent } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/shared/validation';
import { plantEtag } from '@/lib/plants/etag';
import { deletePlant, getPlant, patchPlant } from '@/lib/plants/service';
import { PlantPatch, PlantPathParams } from '@/lib/schemas/plant';

type Params = { id: string };

const plantIdOf = (params: Params) => parseWith(PlantPathParams, params, 'invalid_parameter').id;

// RFC 7396's own media type; plain JSON is accepted too, since a merge patch is written in it.
const MERGE_PATCH_TYPES = ['application/merge-patch+json', 'application/json'];

export const GET = withAuth<Params>('plants:read', async (request, { params }) => {
  const id = plantIdOf(params);
  const ifNoneMatch = ifNoneMatchOf(request);
  const plant = await getPlant(id);
  const etag = plantEtag(plant);
  if (ifNoneMatch && matchesWeakly(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: { ETag: etag } });
  return json(plant, { headers: { ETag: etag } });
});

export const PATCH = withAuth<Params>('plants:write', async (request, context) => {
  const id = plantIdOf(context.params);
  const ifMatch = ifMatchOf(request);
  const patch = parseWith(PlantPatch, await readJsonObject(request, { mediaTypes: MERGE_PATCH_TYPES }));
  const plant = await patchPlant(id, patch, ifMatch, await requestContext(request, context));
  return json(plant, { headers: { ETag: plantEtag(plant) } });
});

export const DELETE = withAuth<Params>('plants:write', async (request, context) => {
  await deletePlant(plantIdOf(context.params), ifMatchOf(request), await requestContext(request, context));
  return noContent();
});

export const POST = methodNotAllowed(['GET', 'HEAD', 'PATCH', 'DELETE']);
export const PUT = POST;
