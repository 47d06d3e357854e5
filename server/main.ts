// The production server: `node .next/standalone/server.js` (npm run build installs this file there,
// bundled, in place of the one next build writes). The API's route handlers are answered directly
// (direct-routes.ts); everything else, pages, assets, sign-in, goes through Next's own request
// handler, as under Next's server. API_DIRECT_ROUTES=off sends everything through Next. npm run
// build bundles this file with what it imports (the route handlers and the lib/ modules they use)
// into .next/standalone/plant-store-server/.
// First: V8 flags that must be in force before any WebAssembly is compiled, and before starting allocates.
import { youngGenerationMayGrow } from './v8-flags';
// Then Next, before the route handlers' modules load (load-next.ts).
import { next } from './load-next';
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import v8 from 'node:v8';
import { fileURLToPath } from 'node:url';
import { answerClientError, refuseRequest } from '../lib/http/client-error';
import { unreadableRouterState } from '../lib/http/next-protocol';
import { configuredPublicOrigin, reachedOverHttps, STRICT_TRANSPORT_SECURITY } from '../lib/http/origin';
import { settleTarget } from '../lib/http/request-target';
import { log } from '../lib/log';
import { settings, SettingsError } from '../lib/settings';
import { asPublicRequest, flushTraces } from '../lib/tracing/spans';
import { createCompression } from './compression';
import { DIRECT_ROUTES, PROXY_PATH } from './direct-paths.mjs';
import { createDirectRoutes } from './direct-routes';
import { warmUp } from './warm-up';
import { HEAP_LIMIT_FLAG, heapLimitSet } from './heap-limit';
import { settleForwardedHeaders } from './forwarded-headers';
import { lingerBeforeClosing } from './linger';
import { holdPort } from './listen-port';
import { preloadEntries, releaseLoadedChunks, setStandaloneConfig, withoutBackgroundPreload } from './next-internals';
import { collectGarbage } from './collect-garbage';
import { refuseConnect, settleRequestHead } from './request-head';
import { createRequestMetrics, type Observed } from './request-metrics';

// This file sits in .next/standalone/plant-store-server/; the standalone app is one folder up.
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

process.chdir(dir);

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the server reads of the settings (lib/settings); one that cannot be read ends the start with one line. */
function ownSettings() {
  try {
    const read = settings();
    return {
      hostname: read.HOSTNAME || '0.0.0.0',
      port: read.PORT,
      keepAliveTimeout: read.KEEP_ALIVE_TIMEOUT,
      trust: read.TRUST_PROXY,
      bodyTimeout: read.BODY_TIMEOUT_MS,
      directRoutes: read.API_DIRECT_ROUTES,
      // What the direct path builds every Request on: never the Host header (Next builds its own on
      // the hostname and port it was given, this file's, whatever Host says).
      ownHost: read.HOSTNAME || '127.0.0.1',
      publicOrigin: configuredPublicOrigin(),
    };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    log.error('could not start: a setting cannot be read', { problems: error.problems });
    process.exit(1);
  }
}

const own = ownSettings();
const { hostname, trust } = own;
// PORT=0 asks for a free port: chosen now, and held until the server listens on it (listen-port.ts).
// An address that cannot be bound ends the process with one line, as a taken port does below.
const heldPort = await holdPort(own.port, hostname).catch((error) => {
  log.error('could not listen', { url: `http://${hostname}:0`, code: error?.code ?? null, error: errorText(error) });
  process.exit(1);
});
const { port } = heldPort;
// Whether a request came over https, decided now when PUBLIC_URL says (lib/http/origin.ts).
const overHttps = reachedOverHttps(trust);
const SERVER_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const origin = own.publicOrigin ?? `http://${own.ownHost.includes(':') ? `[${own.ownHost}]` : own.ownHost}:${port}`;
// What a Host that is not a host becomes before Next sees it (request-head.ts).
const originHost = new URL(origin).host;

// What Next's generated server.js embeds: the build's resolved next.config.
// Next's background preload off, so that the preload below can be awaited before listening.
const config = withoutBackgroundPreload(JSON.parse(readFileSync(path.join(dir, '.next', 'required-server-files.json'), 'utf8')).config);
setStandaloneConfig(config);

const app = next({ dev: false, dir, hostname, port, conf: config });
await app.prepare();
// Every page and route is loaded before the first request is accepted: loaded lazily, the first
// burst after a start waits behind their synchronous loading (health included). But not Next's
// copy of the routes the direct path answers: the server's bundle has them already, and Next's
// would only hold memory (it loads one on first use if a request ever gets there: HEAD, OPTIONS).
const preload = await preloadEntries(app, own.directRoutes ? DIRECT_ROUTES.map(({ page }) => page) : []);
const preloaded = preload !== false;
if (!preloaded) log.warn('Next offers no preload of its pages and routes here; each loads on first use');
const handleWithNext = app.getRequestHandler();
// One compressor for both paths: next.config.js turns Next's own off (server/compression.ts).
const compress = createCompression();
const direct = own.directRoutes ? createDirectRoutes({ origin, compress }) : null;
// Every answer, on either path, is timed here for http_server_request_duration_seconds (null under METRICS=off).
const observeRequest = createRequestMetrics(path.join(dir, '.next'));

function serve(request: IncomingMessage, response: ServerResponse) {
  answer(request, response, observeRequest?.(request, response) ?? null);
}

function answer(request: IncomingMessage, response: ServerResponse, observed: Observed | null) {
  // First, so no path believes a client's X-Forwarded-* unless TRUST_PROXY says so, nor continues
  // the trace of a client that is not a trusted proxy (lib/tracing/spans.ts, asPublicRequest).
  if (settleForwardedHeaders(request, trust)) answerSettled(request, response, observed);
  else asPublicRequest(request.headers, () => answerSettled(request, response, observed));
}

function answerSettled(request: IncomingMessage, response: ServerResponse, observed: Observed | null) {
  // Before either path writes a head, so every answer to a request that came over https has it
  // (both keep what setHeader put there; writeHead merges its own headers in).
  if (overHttps(request.headers['x-forwarded-proto'])) response.setHeader('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  // Then the method and Host, and the target, so both paths serve the same request or refuse it
  // alike (server/request-head.ts, lib/http/request-target.ts).
  const unservable = settleRequestHead(request, originHost);
  if (unservable) return refuseRequest(response, 'bad_request', unservable);
  const target = settleTarget(request.url ?? '');
  if ('refuse' in target) {
    // `OPTIONS *` asks what the server supports in general; nothing else may name `*`.
    if (target.refuse === 'asterisk' && request.method === 'OPTIONS') return void response.writeHead(204, { allow: SERVER_METHODS }).end();
    const message = target.refuse === 'asterisk' ? 'The request target * is only for OPTIONS' : 'The request target is not a path, or its escapes are not UTF-8';
    return refuseRequest(response, 'bad_request', message);
  }
  request.url = target.serve;
  if (observed) observed.path = target.serve.split('?', 1)[0];
  if (direct?.serve(request, response)) return;
  // A page's router state header that Next cannot read: Next would answer 500 (lib/http/next-protocol.ts).
  // The header is looked at first: only an RSC request carries one, so the path is rarely tested.
  const unreadable = unreadableRouterState(request.headers.rsc, request.headers['next-router-state-tree']);
  if (unreadable && PROXY_PATH.test(target.serve.split('?', 1)[0])) return refuseRequest(response, 'unreadable_page_request', unreadable);
  compress(request, response, () => {
    handleWithNext(request, response).catch((error) => {
      log.error('request failed in Next', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
}

// The body timeout is Node's requestTimeout (the whole request, head and body, must arrive within
// it), not a timer in the handlers' body reader (lib/http/body.ts): it is the same server for both
// paths, so both answer alike; it also covers a body no handler reads (Node drops it after the
// answer, and would otherwise wait as long as the client trickles) and a head that never ends. Node
// answers through 'clientError' (408 40801, the connection closed), which also answers what its
// parser refuses (400 40004, 431 43101). Connections are checked each second (Node's default: 30 s).
const server = http.createServer(
  {
    requestTimeout: own.bodyTimeout,
    headersTimeout: own.bodyTimeout ? Math.min(60_000, own.bodyTimeout) : 60_000,
    connectionsCheckingInterval: 1000,
    // request-head.ts refuses an HTTP/1.1 request without Host, with an Error body (Node's own answer has none).
    requireHostHeader: false,
  },
  serve,
);
server.on('clientError', answerClientError);
// An Expect other than 100-continue: Node's own 417 has no body.
server.on('checkExpectation', (_request, response) => refuseRequest(response, 'expectation_failed'));
server.on('connect', refuseConnect);
server.on('connection', lingerBeforeClosing);
if (own.keepAliveTimeout !== null) server.keepAliveTimeout = own.keepAliveTimeout;

// As Next's server: stop accepting, let the requests in flight finish, then exit with the
// signal's code. lib/shutdown.ts marks answers `Connection: close` meanwhile, so busy
// keep-alive clients cannot hold the process open.
let stopping = false;
for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(async () => {
      await app.close().catch((error: unknown) => log.error('Next did not close cleanly', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
      // The last requests' spans, when tracing is on (at most 2 s for an unreachable collector).
      await flushTraces();
      process.exit(code);
    });
    server.closeIdleConnections();
  });
}

// A port that is taken (or an address that cannot be bound) ends the process with one line and a
// failing exit code, so a supervisor or orchestrator sees a failure, not a clean exit.
const refuseToStart = (error: NodeJS.ErrnoException) => {
  log.error('could not listen', { url: `http://${hostname}:${port}`, code: error?.code ?? null, error: errorText(error) });
  process.exit(1);
};
server.once('error', refuseToStart);
// The public pages rendered once on a loopback port of their own, unmeasured (server/warm-up.ts).
const warmed = await warmUp((request, response) => answer(request, response, null));
// Then what starting left behind goes: Node's cached copies of Next's chunk files, whose factories
// Next's runtime has taken (most of them copies of the same modules, from the several bundles),
// and the garbage of migrating, loading and rendering, so the idle server does not hold them.
const releasedChunks = releaseLoadedChunks(path.join(dir, '.next', 'server', 'chunks'));
const collected = collectGarbage();
// And the young generation, kept at its first size while starting, may grow under load (server/v8-flags.ts).
youngGenerationMayGrow();
await heldPort.release();
server.listen(port, hostname, () => {
  server.off('error', refuseToStart);
  const served = direct ? `route handlers answered directly: ${direct.routes.join(', ')}` : 'everything through Next (API_DIRECT_ROUTES=off)';
  // The heap's cap as V8 took it: the flag's, or what it chose from the machine's memory.
  const heapLimitMb = Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20);
  log.info('listening', { url: `http://${hostname}:${port}`, served, preloaded, warmed, heapLimitMb, releasedChunks, collected, ...(preload && preload.length > 0 && { notPreloaded: preload }) });
  if (!heapLimitSet()) {
    log.warn('started with no cap on the heap: V8 sized it from the machine\'s memory, and the server holds more than it needs under load', {
      heapLimitMb,
      suggested: HEAP_LIMIT_FLAG,
    });
  }
});
