// The method and Host, settled before either path sees a request (server/main.ts), as
// lib/http/request-target.ts settles the target: what neither path can serve gets one 400 on both,
// never Next's 500. Next answers TRACE with a 500 (fetch will not make such a Request). Its pages
// answered 500 when Host is not a host (`Host: a b`, `::1`, an empty one: next-auth builds a URL on
// it); nothing of ours believes Host (docs/security.md), so such a one is replaced by the server's
// own before Next sees it. An HTTP/1.1 request without Host gets the 400 Node would give, with the
// Error body Node's has not.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { clientErrorAnswer } from '../lib/http/client-error';

// CONNECT comes to the server's 'connect' event instead, and Node's parser refuses TRACK.
const UNSERVABLE_METHODS = new Set(['TRACE']);
// uri-host [":" port]: a name or IPv4 address, or an IPv6 address in brackets. Stricter than RFC
// 3986's reg-name (no percent escapes or sub-delimiters), as URL parsers are.
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

/** Why the request cannot be served, or null; a Host that is not a host becomes `ownHost`. */
export function settleRequestHead(request: IncomingMessage, ownHost: string): string | null {
  if (UNSERVABLE_METHODS.has(request.method ?? '')) return `${request.method} is not supported`;
  const host = request.headers.host;
  if (host === undefined) return request.httpVersion === '1.0' ? null : 'An HTTP/1.1 request must carry a Host header';
  const valid = HOST.exec(host);
  if (!valid || Number(valid[1] ?? 0) > 65_535) request.headers.host = ownHost;
  return null;
}

/** The server's 'connect' listener: CONNECT gets the same 400 (Node would close without a word). */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => {});
  socket.end(clientErrorAnswer('bad_request', 'CONNECT is not supported: this server is not a proxy'));
}
