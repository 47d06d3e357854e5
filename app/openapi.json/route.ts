import { requestOrigin } from '@/lib/http/origin';
import { json } from '@/lib/http/respond';
import { withoutAuth } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/openapi/document';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = withoutAuth(async (request) => {
  // The document names this server, whichever address it is reached at; the rest never changes.
  document ??= buildOpenApiDocument();
  return json({ ...document, servers: [{ url: requestOrigin(request) }] }, { headers: { 'access-control-allow-origin': '*' } });
});
