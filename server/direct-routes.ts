// The API's route handlers, called directly. Next's router costs more per request than everything
// POST /plants does (see docs/performance.md): matching, request and response adapters, an
// AbortSignal and async contexts per request. These handlers need none of it: they are plain
// functions of a Request that return a Response, with no cookies(), headers() or after(). So the
// server imports them from their source, app/**/route.ts (the build bundles them into the server),
// and calls them itself: nothing here reads Next's compiled routes or its manifests, so any version
// of Next serves the API on this path. The same route files are Next's app routes, which `next
// start` and Vercel run.
// Anything this file is not sure to answer exactly as Next would goes to Next instead: other paths,
// HEAD and OPTIONS (which Next derives), trailing slashes, escaped or dot segments.
// One answer more is given here for a route it does not serve: the sign-in route's refusal of a
// password attempt whose address has spent its allowance (lib/http/sign-in-door.ts), so that a
// burst of refused sign-ins costs no work in Next's router.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as healthRoute from '../app/api/health/route';
import * as benchEmptyRoute from '../app/api/bench/empty/route';
import * as plantRoute from '../app/plants/[id]/route';
import * as batchRoute from '../app/plants/batch/route';
import * as plantsRoute from '../app/plants/route';
import * as statsRoute from '../app/stats/route';
import { ApiError, ERROR_CATALOGUE, INTERNAL_ERROR_MESSAGE } from '../lib/errors';
import { apiErrorResponse } from '../lib/http/respond';
import { refusalAtTheDoor } from '../lib/http/sign-in-door';
import { log } from '../lib/log';
import { inRequestSpan } from '../lib/tracing/spans';
import type { Compress } from './compression';
import { DIRECT_ROUTES } from './direct-paths.mjs';
import { configuredHeadersFor } from './response-headers.mjs';

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, unknown>>;

/** Each direct route's handlers, by its page (server/direct-paths.mjs names the pages and their paths). */
export const ROUTE_MODULES: Record<string, RouteModule> = {
  '/plants': plantsRoute,
  '/plants/[id]': plantRoute,
  '/plants/batch': batchRoute,
  '/stats': statsRoute,
  '/api/health': healthRoute,
  '/api/bench/empty': benchEmptyRoute,
};

// The methods a route handler may export; Next answers HEAD and OPTIONS itself, from the others.
const HANDLER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const INTERNAL_ERROR = JSON.stringify({ error: ERROR_CATALOGUE.internal.code, message: INTERNAL_ERROR_MESSAGE });
// The sign-in route, as Next names it (the door's span and answer are the route's).
const SIGN_IN_PAGE = '/api/auth/[...nextauth]';

type Route = { page: string; pattern: RegExp; param?: string; handlers: Partial<Record<string, Handler>> };

/** The direct routes with their handlers; throws when a route of DIRECT_ROUTES has no module here. */
export function directRoutes(): Route[] {
  return DIRECT_ROUTES.map((route) => {
    const routeModule = ROUTE_MODULES[route.page];
    if (!routeModule) throw new Error(`server/direct-routes.ts imports no handlers for ${route.page}`);
    const handlers: Partial<Record<string, Handler>> = {};
    for (const method of HANDLER_METHODS) if (typeof routeModule[method] === 'function') handlers[method] = routeModule[method] as Handler;
    return { ...route, handlers };
  });
}

/**
 * The request's body, read only when the handler reads it, as Next gives it the body: so a handler
 * that refuses a request (401, 403, 413 from the declared size) answers at once, without waiting
 * for a body it will not use. A body the handler never looked at Node reads and drops once the
 * answer is sent, as under Next, for at most BODY_TIMEOUT_MS (main.ts); nothing of it is held.
 */
function bodyOf(request: IncomingMessage): ReadableStream<Uint8Array> {
  let listening = false;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const stop = () => request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  const onData = (chunk: Buffer) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) < 0) request.pause();
  };
  const onEnd = () => {
    stop();
    controller.close();
  };
  // The client went away, or did not send in time: the handler's read fails (lib/http/body.ts).
  const onError = (error: Error) => {
    stop();
    controller.error(error);
  };
  const onClose = () => onError(new Error('aborted'));
  return new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
      },
      pull() {
        if (!listening) {
          listening = true;
          if (request.destroyed) return onError(new Error('aborted'));
          request.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
        }
        request.resume();
      },
      // The handler stopped reading (a body over its limit). Under Next the rest is then left
      // unread, not drained: the connection is held until BODY_TIMEOUT_MS closes it with a 408. So
      // here too, or a request pipelined behind it would be answered here and not there.
      cancel() {
        stop();
        request.pause();
      },
    },
    // No read-ahead: a stream pulls as soon as it is made to fill its high-water mark, and
    // this one must not read a byte before the handler asks for it.
    { highWaterMark: 0 },
  );
}

function hasBody(request: IncomingMessage): boolean {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

export type DirectRoutes = {
  /** Answers and returns true, or returns false without touching either, for Next to answer. */
  serve: (request: IncomingMessage, response: ServerResponse) => boolean;
  /** The pages answered directly, for the start-up log. */
  routes: string[];
};

/**
 * The direct router. `origin` is what every Request is built on (main.ts: PUBLIC_URL's, or the
 * server's own address), never the Host header: a handler that names a URL must not name one a
 * client chose. `compress` is the server's compression (server/compression.ts), which Next's answers
 * get too.
 */
export function createDirectRoutes({ origin, compress }: { origin: string; compress: Compress }): DirectRoutes {
  const routes = directRoutes();

  function match(request: IncomingMessage) {
    const url = request.url ?? '';
    const queryAt = url.indexOf('?');
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    for (const route of routes) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      const handler = route.handlers[request.method ?? ''];
      if (!handler) return null;
      return { handler, pathname, page: route.page, params: route.param ? { [route.param]: found[1] } : {} };
    }
    return null;
  }

  /** The Request the handler sees, as Next builds it: GET and HEAD never carry a body (Next drops it). */
  function webRequestOf(request: IncomingMessage): Request {
    const body = request.method !== 'GET' && request.method !== 'HEAD' && hasBody(request) ? bodyOf(request) : null;
    return new Request(`${origin}${request.url}`, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body,
      duplex: 'half',
    } as RequestInit);
  }

  async function respond(request: IncomingMessage, response: ServerResponse, pathname: string, answered: Response) {
    const headers: Record<string, string | string[]> = {};
    for (const { key, value } of configuredHeadersFor(pathname)) headers[key.toLowerCase()] = value;
    answered.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = answered.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;

    const payload = answered.body ? Buffer.from(await answered.arrayBuffer()) : undefined;
    if (payload) headers['content-length'] = String(payload.length);
    // Next's bodies have no length, so an HTTP/1.0 client (which cannot take chunks) sees the
    // connection close after each; the direct path closes it too.
    if (payload && request.httpVersion === '1.0') headers.connection = 'close';
    compress(request, response, () => {
      response.writeHead(answered.status, headers);
      // Node buffers the 100 Continue of a pipelined request whose answer waits its turn, and
      // puts a head written with a Buffer body in front of it: the head goes out on its own first.
      if (request.headers.expect !== undefined) response.flushHeaders();
      response.end(payload);
    });
  }

  function fail(response: ServerResponse, error: unknown) {
    log.error('direct route failed', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    if (response.headersSent) return void response.destroy();
    response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
    response.end(INTERNAL_ERROR);
  }

  function serve(request: IncomingMessage, response: ServerResponse): boolean {
    const method = request.method ?? '';
    const url = request.url ?? '';
    const refusal = refusalAtTheDoor(method, url, request.headers['x-forwarded-for'] as string | undefined);
    if (refusal) {
      const pathname = url.split('?', 1)[0];
      inRequestSpan({ method, url, headers: request.headers }, response, SIGN_IN_PAGE, () =>
        respond(request, response, pathname, refusal).catch((error) => fail(response, error)),
      );
      return true;
    }
    const found = match(request);
    if (!found) return false;
    // Next's router makes each request's server span; here it is made as Next would make it for the
    // same route (lib/tracing/spans.ts), when tracing is on.
    inRequestSpan({ method, url, headers: request.headers }, response, found.page, () => answer(request, response, found));
    return true;
  }

  function answer(request: IncomingMessage, response: ServerResponse, found: NonNullable<ReturnType<typeof match>>) {
    let webRequest: Request;
    try {
      webRequest = webRequestOf(request);
    } catch {
      // Nothing a client sends should get here (Node's parser has checked the request line and
      // headers, and the target matched a plain path), but if a Request cannot be built from
      // it, that is the client's request, not a fault: 400, and the connection closes.
      const refusal = apiErrorResponse(new ApiError('bad_request', 'The request cannot be read: check its target and headers'));
      refusal.headers.set('connection', 'close');
      refusal.headers.set('cache-control', 'no-store');
      respond(request, response, found.pathname, refusal).catch((error) => fail(response, error));
      return;
    }
    found
      .handler(webRequest, { params: Promise.resolve(found.params) })
      .then((answered) => respond(request, response, found.pathname, answered))
      .catch((error) => fail(response, error));
  }

  return { serve, routes: routes.map((route) => route.page) };
}
