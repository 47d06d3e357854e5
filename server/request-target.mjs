// Requests Node's parser accepts but neither path can serve: main.mjs settles them before the
// direct path or Next sees the request, so both answer alike, and none answers 500. Next fails with
// a 500 on TRACE (fetch refuses to build such a Request), on an asterisk-form target (`GET *`, not
// a URL), on a dynamic path segment that is not valid percent-encoded UTF-8 (`/plants/%ZZ`), and
// on its pages when Host is not a host (`Host: a b`, `Host: ::1`, an empty one: next-auth builds a
// URL on it). RFC 9112 §3.2 asks for a 400 there anyway, and for two Host lines. An absolute-form target (`GET http://evil.example/plants/`) names a host,
// which is as much the client's choosing as a Host header: Next builds redirects on it
// (`Location: http://evil.example/plants/`), so it is reduced to its path and query, as if sent in
// origin form (RFC 9112 §3.2.2 lets a server choose the target's authority over Host; this server
// uses neither).
import { ERROR_CATALOGUE } from '../lib/http/errors.ts';

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
// Methods fetch will not make a Request of (CONNECT comes to the server's 'connect' event instead,
// and Node's parser refuses TRACK).
const UNSERVABLE_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

// uri-host [":" port]: a name or IPv4 address, or an IPv6 address in brackets. Stricter than RFC
// 3986's reg-name (no percent escapes or sub-delimiters), as URL parsers are.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

function hostProblem(request) {
  const host = request.headers.host;
  if (host === undefined) return request.httpVersion === '1.0' ? null : 'An HTTP/1.1 request must carry a Host header';
  const valid = HOST.exec(host);
  if (!valid || Number(valid[1] ?? 0) > 65_535) return 'The Host header must be a host name or address, with an optional port';
  let lines = 0;
  for (let at = 0; at < request.rawHeaders.length; at += 2) if (request.rawHeaders[at].length === 4 && request.rawHeaders[at].toLowerCase() === 'host') lines++;
  return lines > 1 ? 'Send one Host header, not several' : null;
}

/** Why the request cannot be served, or null; rewrites an absolute-form target to origin form. */
export function settleRequestTarget(request) {
  if (UNSERVABLE_METHODS.has(request.method)) return `${request.method} is not supported`;
  const badHost = hostProblem(request);
  if (badHost) return badHost;
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
