// The answer to a request Node's HTTP parser refuses, or that does not arrive in time: Node then
// has no request or response, only the socket (the server's 'clientError' event), and by default
// writes a bare status line. This writes the Error body every other answer has, the same on the
// direct path and Next's, since neither is reached. The production server (server/main.ts) uses it.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { log } from '../log';
import { ERROR_CATALOGUE, type ErrorKind } from '../errors';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 417: 'Expectation Failed', 431: 'Request Header Fields Too Large' };

const MESSAGES: Partial<Record<ErrorKind, string>> = {
  bad_request: 'The request is not valid HTTP/1.1 (its request line, a header, or its body framing)',
  request_timeout: 'The request did not arrive in time: send the head and body within BODY_TIMEOUT_MS',
  headers_too_large: 'The request head is too large: keep the request line and headers under 16 KiB',
  expectation_failed: 'Only Expect: 100-continue is understood: send the request without that Expect header',
};

/** Which Error a Node client error is. */
export function clientErrorKind(code: string | undefined): ClientErrorKind {
  if (code === 'HPE_HEADER_OVERFLOW') return 'headers_too_large';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'request_timeout';
  return 'bad_request';
}

type ClientErrorKind = 'bad_request' | 'request_timeout' | 'headers_too_large' | 'expectation_failed' | 'unreadable_page_request';

function answerOf(kind: ClientErrorKind, message = MESSAGES[kind]) {
  const { code, status } = ERROR_CATALOGUE[kind];
  const body = JSON.stringify({ error: code, message });
  const headers = {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  };
  return { status, headers, body };
}

/** The whole HTTP/1.1 answer, as bytes to write to the socket. */
export function clientErrorAnswer(kind: ClientErrorKind, message?: string): string {
  const { status, headers, body } = answerOf(kind, message);
  return [`HTTP/1.1 ${status} ${REASONS[status]}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', body].join('\r\n');
}

/**
 * The same answer to a request Node parsed but no router can take (lib/http/request-target.ts);
 * the connection closes, as after the parser's refusals.
 */
export function refuseRequest(response: ServerResponse, kind: ClientErrorKind, message?: string): void {
  const { status, headers, body } = answerOf(kind, message);
  response.shouldKeepAlive = false;
  response.writeHead(status, headers).end(body);
}

// A client still sending when the connection closes may lose the answer to a reset: it goes out
// first, and the socket is destroyed once the client stops, or after this long.
const LINGER_MS = 1000;
const answered = new WeakSet<Duplex>();

type PendingAnswer = { headersSent?: boolean; writableFinished?: boolean; req?: { complete?: boolean }; once(event: 'close', listener: () => void): unknown };
type ClientSocket = Duplex & { _httpMessage?: PendingAnswer | null; remoteAddress?: string };

/** The server's 'clientError' listener. */
export function answerClientError(error: NodeJS.ErrnoException, socket: ClientSocket): void {
  if (answered.has(socket)) return;
  // A malformed request pipelined behind whole ones, or bytes after one that said `Connection:
  // close`: the answers owed to the whole requests go first, in order. Answering now would put this
  // one in front, or cut an answer under way short.
  const owed = socket._httpMessage;
  if (error.code?.startsWith('HPE_') && owed && !owed.writableFinished && owed.req?.complete) {
    owed.once('close', () => answerClientError(error, socket));
    return;
  }
  // A client that went away hears nothing and is no fault of ours. An answer already under way
  // on this connection must not be cut into: the connection just closes, as under Node's default.
  if (error.code === 'ECONNRESET' || error.code === 'EPIPE' || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  const kind = clientErrorKind(error.code);
  // Only the parser's code: the message may quote what the client sent, tokens included. A client
  // that closed its side mid-request (INVALID_EOF_STATE) went away; that is not worth a warning.
  const fields = { code: error.code ?? 'unknown', status: ERROR_CATALOGUE[kind].status, address: socket.remoteAddress };
  if (error.code === 'HPE_INVALID_EOF_STATE') log.info('client went away mid-request', fields);
  else log.warn('client error', fields);
  answered.add(socket);
  socket.end(clientErrorAnswer(kind));
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(linger));
  socket.resume();
}
