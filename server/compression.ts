// Compression of every answer the production server gives, the direct path's and Next's router's
// alike: the `compression` package (gzip, deflate and brotli, as Accept-Encoding negotiates, from
// 1 KiB when the answer's length is known), one middleware for both paths. next.config.js turns
// Next's own off (`compress: false`), so nothing is compressed twice.
import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';

/**
 * compression's own filter (a compressible Content-Type), on the type as one value: Next writes its
 * headers with appendHeader, so a Content-Type it set is a list of one, which compressible() does
 * not read, and the answer would go out uncompressed.
 */
export function compressibleAnswer(request: IncomingMessage, response: ServerResponse): boolean {
  const type = response.getHeader('content-type');
  if (Array.isArray(type) && type.length === 1) response.setHeader('content-type', type[0]);
  return compression.filter(request as never, response as never);
}

export type Compress = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;

/** The middleware: `compress(request, response, next)` wraps the response, then calls next. */
export function createCompression(): Compress {
  const middleware = compression({ filter: compressibleAnswer });
  return (request, response, next) => middleware(request as never, response as never, () => next());
}
