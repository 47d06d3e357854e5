// The API's route handlers, served straight from their compiled modules. Next's router costs
// more per request than everything POST /plants does (see the README's Benchmark): matching,
// request and response adapters, an AbortSignal and async contexts per request. These handlers
// need none of it: they take a Request and return a Response, with no cookies(), headers() or
// after(). Anything this file is not sure to answer exactly as Next would goes to Next instead:
// other paths, HEAD and OPTIONS (which Next derives), trailing slashes, escaped or dot segments.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);

// Only handlers written for this may be listed: they must use nothing but the Request. The other
// routes under /plants/ (batch, export, next-id) are left to Next, which prefers them to [id]:
// their work outweighs Next's cost, and export streams its answer, which answer() below would hold.
const NEXT_ONLY_UNDER_PLANTS = ['batch', 'export', 'next-id'];
const DIRECT_ROUTES = [
  { page: '/plants', pattern: /^\/plants$/ },
  {
    page: '/plants/[id]',
    pattern: new RegExp(`^/plants/(?!\\.{1,2}$)(?!(?:${NEXT_ONLY_UNDER_PLANTS.join('|')})$)([A-Za-z0-9._~-]+)$`),
    param: 'id',
  },
  { page: '/api/bench/empty', pattern: /^\/api\/bench\/empty$/ },
];

// Methods Next answers itself from the handler's others.
const DERIVED_METHODS = new Set(['HEAD', 'OPTIONS']);
// A body is held in memory up to this size, then cut short. Each handler's own limit is smaller
// (64 KiB for JSON bodies, lib/http/body.ts), so it still sees "too large" and answers 413.
export const DIRECT_BODY_CAP_BYTES = 256 * 1024;
// As Next's compression: gzip when asked for and when it pays off.
const COMPRESS_FROM_BYTES = 1024;
const INTERNAL_ERROR = JSON.stringify({
  error: 50001,
  message: 'Internal error: the server could not complete the request. Quote the x-request-id header when reporting it.',
});

/** next.config.js `headers()`, as the build recorded them; null when one has conditions. */
function configuredHeaders(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, 'routes-manifest.json'), 'utf8'));
  const rules = manifest.headers ?? [];
  if (rules.some((rule) => rule.has || rule.missing)) return null;
  return rules.map((rule) => ({ regex: new RegExp(rule.regex), headers: rule.headers }));
}

async function loadHandlers(distDir) {
  const require = createRequire(path.join(distDir, 'server', 'app', 'index.js'));
  const routes = [];
  for (const route of DIRECT_ROUTES) {
    const { routeModule } = require(`./${route.page.slice(1)}/route.js`);
    await routeModule.ensureUserland();
    routes.push({ ...route, handlers: routeModule.userland });
  }
  return routes;
}

/** Reads a request body into memory, at most `cap` bytes; `complete` says whether it all fit. */
function readBody(request, cap) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    const finish = (complete) => {
      request.off('data', onData).off('end', onEnd).off('error', reject);
      resolve({ bytes: Buffer.concat(chunks), complete });
    };
    const onData = (chunk) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > cap) {
        request.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    request.on('data', onData).on('end', onEnd).on('error', reject);
  });
}

const LINGER_MAX_MS = 2000;
const LINGER_QUIET_MS = 100;

/** Reads and drops what the client still sends, until it stops (or stops for a moment). */
function lingerWhileSending(request) {
  return new Promise((resolve) => {
    let quiet;
    const done = () => {
      clearTimeout(quiet);
      clearTimeout(limit);
      request.off('data', onData).off('end', done).off('close', done);
      resolve();
    };
    const onData = () => {
      clearTimeout(quiet);
      quiet = setTimeout(done, LINGER_QUIET_MS);
    };
    const limit = setTimeout(done, LINGER_MAX_MS);
    request.on('data', onData).on('end', done).on('close', done);
    onData();
    request.resume();
  });
}

function hasBody(request) {
  return request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
}

/**
 * The direct router for the standalone build in `dir`: `serve(request, response)` answers and
 * returns true, or returns false without touching either, for Next to answer.
 */
export async function createDirectRoutes(dir) {
  const distDir = path.join(dir, '.next');
  const headerRules = configuredHeaders(distDir);
  if (headerRules === null) return { serve: () => false, routes: [] };
  const routes = await loadHandlers(distDir);

  function match(request) {
    if (DERIVED_METHODS.has(request.method)) return null;
    const queryAt = request.url.indexOf('?');
    const pathname = queryAt === -1 ? request.url : request.url.slice(0, queryAt);
    for (const route of routes) {
      const found = route.pattern.exec(pathname);
      if (!found) continue;
      const handler = route.handlers[request.method];
      if (typeof handler !== 'function') return null;
      return { handler, pathname, params: route.param ? { [route.param]: found[1] } : {} };
    }
    return null;
  }

  async function answer(request, response, { handler, pathname, params }) {
    let complete = true;
    let body;
    if (hasBody(request)) {
      // A declared size over the cap is not kept at all: the handler refuses it from the header.
      if (Number(request.headers['content-length']) > DIRECT_BODY_CAP_BYTES) complete = false;
      else ({ bytes: body, complete } = await readBody(request, DIRECT_BODY_CAP_BYTES));
    }
    const url = `http://${request.headers.host ?? 'localhost'}${request.url}`;
    const webRequest = new Request(url, { method: request.method, headers: request.headers, body });
    const answered = await handler(webRequest, { params: Promise.resolve(params) });

    const headers = {};
    for (const rule of headerRules) {
      if (rule.regex.test(pathname)) for (const { key, value } of rule.headers) headers[key.toLowerCase()] = value;
    }
    answered.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value;
    });
    const cookies = answered.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;

    let payload = answered.body ? Buffer.from(await answered.arrayBuffer()) : undefined;
    if (payload && /json|text/.test(headers['content-type'] ?? '')) {
      headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
      if (payload.length >= COMPRESS_FROM_BYTES && /\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
        payload = await gzipAsync(payload);
        headers['content-encoding'] = 'gzip';
      }
    }
    if (payload) headers['content-length'] = String(payload.length);
    if (complete) return void response.writeHead(answered.status, headers).end(payload);
    // The rest of that body would be read as the next request, so the connection must close. Closing
    // a socket with unread data resets it, and a client still sending may lose the answer with it:
    // the answer goes out first, and the close waits until the client stops sending (or 2 s).
    headers.connection = 'close';
    response.writeHead(answered.status, headers).write(payload ?? '');
    await lingerWhileSending(request);
    response.end();
  }

  function serve(request, response) {
    const found = match(request);
    if (!found) return false;
    answer(request, response, found).catch((error) => {
      process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg: 'direct route failed', error: error?.stack ?? String(error) })}\n`);
      if (response.headersSent) return void response.destroy();
      response.writeHead(500, { 'content-type': 'application/json; charset=utf-8', connection: 'close' });
      response.end(INTERNAL_ERROR);
    });
    return true;
  }

  return { serve, routes: routes.map((route) => route.page) };
}
