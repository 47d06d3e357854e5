import { configuredPublicOrigin } from '@/lib/http/origin';
import { json } from '@/lib/http/respond';
import { withoutAuth } from '@/lib/http/route';
import { buildOpenApiDocument } from '@/lib/openapi/document';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

// The same for everyone until the next deploy, so shared caches may keep it for a while.
const CACHE_POLICY = 'public, max-age=300';

export const GET = withoutAuth(async () => {
  // The public URL when one is configured; otherwise a relative server, which clients resolve
  // against the address they fetched this document from. Never a Host or X-Forwarded-Host header.
  document ??= buildOpenApiDocument(configuredPublicOrigin() ?? '/');
  return json(document, { headers: { 'access-control-allow-origin': '*', 'cache-control': CACHE_POLICY } });
});
