import { json, noContent } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/http/validation';
import { deletePlant, getPlant } from '@/lib/plants/service';
import { PlantPathParams } from '@/lib/schemas/plant';

type Params = { id: string };

const plantIdOf = (params: Params) => parseWith(PlantPathParams, params, 'invalid_parameter').id;

export const GET = withAuth<Params>(async (_request, { params }) => {
  return json(await getPlant(plantIdOf(params)));
});

export const DELETE = withAuth<Params>(async (_request, { params }) => {
  await deletePlant(plantIdOf(params));
  return noContent();
});

export const POST = methodNotAllowed(['GET', 'HEAD', 'DELETE']);
export const PUT = POST;
export const PATCH = POST;
