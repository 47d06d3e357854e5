import { listAuditRecords } from '@/lib/audit/service';
import { nextPageHeaders } from '@/lib/http/pagination';
import { json } from '@/lib/http/respond';
import { methodNotAllowed, withAuth } from '@/lib/http/route';
import { parseWith } from '@/lib/shared/validation';
import { ListAuditEventsQuery } from '@/lib/schemas/audit';
import { LIST_LIMIT_DEFAULT } from '@/lib/schemas/list';

export const GET = withAuth('audit:read', async (request) => {
  const url = new URL(request.url);
  const query = parseWith(ListAuditEventsQuery, Object.fromEntries(url.searchParams), 'invalid_parameter');
  const page = await listAuditRecords({ ...query, limit: query.limit ?? LIST_LIMIT_DEFAULT });
  return json(page.records, { headers: nextPageHeaders(url, page.nextCursor) });
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
