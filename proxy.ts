// A fresh Content-Security-Policy nonce for every page view. Next.js reads the nonce from the
// request's CSP header and puts it on its own scripts; nothing else may run. API paths are not
// matched: they serve JSON, and skipping the proxy keeps it off their hot path. Whatever this
// leaves out gets next.config.js's static policy instead, which runs no script.
import { NextResponse, type NextRequest } from 'next/server';
import { unreadableActionBody } from './lib/http/next-protocol';
import { apiErrorResponse } from './lib/http/respond';

export function contentSecurityPolicy(nonce: string, development: boolean): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonced runtime load its own chunks (the API reference's, say).
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    // Inline style attributes (Swagger UI sets some) cannot carry a nonce.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export async function proxy(request: NextRequest) {
  // Before Next reads a Server Action's body: what it cannot read is a 400 here, where Next would
  // answer 500 (lib/http/next-protocol.ts).
  const unreadable = await unreadableActionBody(request);
  if (unreadable) return apiErrorResponse(unreadable);
  const nonce = btoa(crypto.randomUUID());
  const policy = contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development');
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  return response;
}

// Prefetches too: a page requested with `next-router-prefetch: 1` is still a page. Next reads the
// matcher from this file's source, so it must be a literal: it is server/direct-paths.mjs's
// PROXY_MATCHER, which leaves out every API path (the direct ones among them) and is the lookahead
// next.config.js's static policy uses, positive there; test/unit/direct-paths.test.ts keeps them equal.
export const config = {
  matcher: ['/((?!plants|audit-events|metrics|stats|api/|backups/|openapi\\.json|_next/static|_next/image|favicon\\.ico|icon\\.svg).*)'],
};
