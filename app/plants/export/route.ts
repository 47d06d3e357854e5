import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/shared/validation';
import { plantsCsv } from '@/lib/plants/export';
import { PlantFilterQuery } from '@/lib/schemas/list';

export const GET = withAuth('plants:read', async (request, { requestId }) => {
  const filter = parseWith(PlantFilterQuery, Object.fromEntries(new URL(request.url).searchParams), 'invalid_parameter');
  return new Response(await plantsCsv(filter, requestId), {
    headers: { 'content-type': 'text/csv; charset=utf-8; header=present', 'content-disposition': 'attachment; filename="plants.csv"' },
  });
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
