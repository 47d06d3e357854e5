// The API's route handlers, served straight from their compiled modules. Next's router costs
// more per request than everything POST /plants does (see docs/performance.md): matching,
// request and response adapters, an AbortSignal and async contexts per request. These handlers
// need none of it: they take a Request and return a Response, with no cookies(), headers() or
// after(). Anything this file is not sure to answer exactly as Next would goes to Next instead:
// other paths, HEAD and OPTIONS (which Next derives), trailing slashes, escaped or dot segments.
// One answer more is given here for a route it does not serve: the sign-in route's refusal of a
// password attempt whose address has spent its allowance (lib/http/sign-in-door.ts), so that a
// burst of refused sign-ins costs no work in Next's router.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ApiError, ERROR_CATALOGUE, INTERNAL_ERROR_MESSAGE } from '../lib/errors.ts';
import { apiErrorResponse } from '../lib/http/respond.ts';
import { refusalAtTheDoor } from '../lib/http/sign-in-door.ts';
import { log } from '../lib/log.ts';
import { inRequestSpan } from '../lib/tracing/spans.ts';
import { checkBuild } from './build-check.mjs';
import { DIRECT_ROUTES } from './direct-paths.mjs';
import { nextCompression, routeHandlersOf } from './next-internals.mjs';

// Methods Next answers itself from the handler's others.
const DERIVED_METHODS = new Set(['HEAD', 'OPTIONS']);
const INTERNAL_ERROR = JSON.stringify({ error: ERROR_CATALOGUE.internal.code, message: INTERNAL_ERROR_MESSAGE });
// The sign-in route, as Next names it (the door's span and answer are the route's).
const SIGN_IN_PAGE = '/api/auth/[...nextauth]';

/** next.config.js `headers()` without conditions, as the build recorded them (build-check.mjs refuses conditional ones on a direct path). */
function configuredHeaders(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, 'routes-manifest.json'), 'utf8'));
  return (manifest.headers ?? []).filter((rule) => !rule.has && !rule.missing).map((rule) => ({ regex: new RegExp(rule.regex), headers: rule.headers }));
}

async function loadHandlers(distDir) {
  const require = createRequire(path.join(distDir, 'server', 'app', 'index.js'));
  const routes = [];
  const reasons = [];
  for (const route of DIRECT_ROUTES) {
    const loaded = await routeHandlersOf(route.page, require(`./${route.page.slice(1)}/route.js`));
    if ('reasons' in loaded) reasons.push(...loaded.reasons);
    else routes.push({ ...route, handlers: loaded.handlers });
  }
  return { routes, reasons };
}

/**
 * The request's body, read only when the handler reads it, as Next gives it the body: so a handler
 * that refuses a request (401, 403, 413 from the declared size) answers at once, without waiting
 * for a body it will not use. A body the handler never looked at Node reads and drops once the
 * answer is sent, as under Next, for at most BODY_TIMEOUT_MS (main.mjs); nothing of it is held.
 */
function bodyOf(request) {
  let listening = false;
  const stop = () => request.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
  let controller;
  const onData = (chunk) => {
    controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if (controller.desiredSize < 0) request.pause();
  };
  const onEnd = () => {
    stop();
    controller.close();
  };
  // The client went away, or did not send in time: the handler's read fails (lib/http/body.ts).
  const onError = (error) => {
    stop();
    controller.error(error);
  };
  const onClose = () => onError(new Error('aborted'));
  return new ReadableStream(
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

function hasBody(request) {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/**
 * The direct router for the standalone build in `dir`: `serve(request, response)` answers and
 * returns true, or returns false without touching either, for Next to answer. `origin` is what
 * every Request is built on (main.mjs: PUBLIC_URL's, or the server's own address), never the Host
 * header: a handler that names a URL must not name one a client chose. When the build is not what
 * this file was written for (build-check.mjs), `refused` says why and every request goes to Next.
 */
export async function createDirectRoutes(dir, { origin }) {
  const distDir = path.join(dir, '.next');
  const refusedBy = (reasons) => ({ serve: () => false, routes: [], refused: reasons });
  const reasons = checkBuild(dir);
  if (reasons.length) return refusedBy(reasons);
  const headerRules = configuredHeaders(distDir);
  const loaded = await loadHandlers(distDir);
  if (loaded.reasons.length) return refusedBy(loaded.reasons);
  const { routes } = loaded;
  // Next's own compression middleware, the one its router puts on every answer: so the coding
  // chosen from Accept-Encoding (q-values, *, deflate), the Vary it adds and the types it
  // compresses are Next's. Its threshold (1 KiB) applies when the answer's length is known, and here
  // it always is, while Next streams its answers without one: the direct path compresses only from
  // 1 KiB, Next every body (docs/decisions.md, Compression; the direct path's deliberate differences are listed in docs/testing.md).
  let compress;
  try {
    compress = nextCompression(dir);
  } catch (error) {
    return refusedBy([`Next's compression middleware: ${error?.message ?? error}`]);
  }

  function match(request) {
    if (DERIVED_METHODS.has(request.method)) return null;
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    for (const route of routes) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      const handler = route.handlers[request.method];
      if (typeof handler !== 'function') return null;
      return { handler, pathname, page: route.page, params: route.param ? { [route.param]: found[1] } : {} };
    }
    return null;
  }

  /** The Request the handler sees, as Next builds it: GET and HEAD never carry a body (Next drops it). */
  function webRequestOf(request) {
    const body = request.method !== 'GET' && request.method !== 'HEAD' && hasBody(request) ? bodyOf(request) : null;
    return new Request(`${origin}${request.url}`, { method: request.method, headers: request.headers, body, duplex: 'half' });
  }

  async function respond(request, response, pathname, answered) {
    const headers = {};
    for (const rule of headerRules) {
      if (rule.regex.test(pathname)) for (const { key, value } of rule.headers) headers[key.toLowerCase()] = value;
    }
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

  function fail(response, error) {
    log.error('direct route failed', { error: error?.stack ?? String(error) });
    if (response.headersSent) return void response.destroy();
    response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
    response.end(INTERNAL_ERROR);
  }

  function serve(request, response) {
    const refusal = refusalAtTheDoor(request.method, request.url, request.headers['x-forwarded-for']);
    if (refusal) {
      const pathname = request.url.split('?', 1)[0];
      inRequestSpan(request, response, SIGN_IN_PAGE, () => respond(request, response, pathname, refusal).catch((error) => fail(response, error)));
      return true;
    }
    const found = match(request);
    if (!found) return false;
    // Next's router makes each request's server span; here it is made as Next would make it for the
    // same route (lib/tracing/spans.ts), when tracing is on.
    inRequestSpan(request, response, found.page, () => answer(request, response, found));
    return true;
  }

  function answer(request, response, found) {
    let webRequest;
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
