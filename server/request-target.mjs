// Requests Node's parser accepts but neither path can serve: main.mjs settles them before the
// direct path or Next sees the request, so both answer alike, and none answers 500. Next fails with
// a 500 on TRACE (fetch refuses to build such a Request), on an asterisk-form target (`GET *`, not
// a URL), and on a dynamic path segment that is not valid percent-encoded UTF-8 (`/plants/%ZZ`).
// Its pages failed with a 500 too when Host is not a host (`Host: a b`, `::1`, empty: next-auth
// builds a URL on it); nothing of ours believes Host (README, Security), so such a one is replaced
// by the server's own before Next sees it. An absolute-form target (`GET http://evil.example/plants/`)
// names a host, which is as much the client's choosing as a Host header: Next built redirects on it
// (`Location: http://evil.example/plants/`), so it is reduced to its path and query, as if sent in
// origin form (RFC 9112 §3.2.2 lets a server prefer the target's authority to Host; this server
// uses neither).
import { ERROR_CATALOGUE } from '../lib/http/errors.ts';

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
// Methods fetch will not make a Request of (CONNECT comes to the server's 'connect' event instead,
// and Node's parser refuses TRACK).
const UNSERVABLE_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

// uri-host [":" port]: a name or IPv4 address, or an IPv6 address in brackets. Stricter than RFC
// 3986's reg-name (no percent escapes or sub-delimiters), as URL parsers are.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** Replaces a Host that is not a host with `ownHost`; refuses an HTTP/1.1 request without one. */
function settleHost(request, ownHost) {
  const host = request.headers.host;
  if (host === undefined) return request.httpVersion === '1.0' ? null : 'An HTTP/1.1 request must carry a Host header';
  const valid = HOST.exec(host);
  if (!valid || Number(valid[1] ?? 0) > 65_535) request.headers.host = ownHost;
  return null;
}

/**
 * Why the request cannot be served, or null; rewrites an absolute-form target to origin form, and
 * a Host that is not a host to `ownHost` (the host of the origin handlers see).
 */
export function settleRequestTarget(request, ownHost) {
  if (UNSERVABLE_METHODS.has(request.method)) return `${request.method} is not supported`;
  const missingHost = settleHost(request, ownHost);
  if (missingHost) return missingHost;
  const authority = ABSOLUTE_FORM.exec(request.url);
  if (authority) {
    const rest = request.url.slice(authority[0].length);
    request.url = rest.startsWith('/') ? rest : `/${rest}`;
  }
  if (!request.url.startsWith('/')) return 'The request target must be a path, such as /plants (or an absolute URL)';
  const queryAt = request.url.indexOf('?');
  try {
    decodeURIComponent(queryAt === -1 ? request.url : request.url.slice(0, queryAt));
  } catch {
    return 'The request path is not valid percent-encoded UTF-8';
  }
  return null;
}

/** The 400 Error for a request settleRequestTarget() refused; the connection closes after it. */
export function refuseRequest(response, message) {
  const { code, status } = ERROR_CATALOGUE.bad_request;
  const body = JSON.stringify({ error: code, message });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  response.end(body);
}

/** The server's 'connect' listener: CONNECT gets the same 400 (Node would close without a word). */
export function refuseConnect(_request, socket) {
  const { code, status } = ERROR_CATALOGUE.bad_request;
  const body = JSON.stringify({ error: code, message: 'CONNECT is not supported: this server is not a proxy' });
  socket.on('error', () => {});
  socket.end(
    [
      `HTTP/1.1 ${status} Bad Request`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      'X-Content-Type-Options: nosniff',
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}
