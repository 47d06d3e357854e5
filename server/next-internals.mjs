// Next.js's private surface: every module under next/dist and every undocumented property or
// variable this server relies on, in this one file, so that upgrading Next means checking one file
// (the checklist is in docs/architecture.md, "Upgrading Next.js"). Nothing else may import next/dist
// (test/unit/next-internals.test.ts). What uses each:
// - the direct path (direct-routes.mjs): a compiled route's handlers and Next's compression;
// - the production server (main.mjs): the standalone config, as Next's generated server.js sets it,
//   and Next's preload of every page and route, awaited before the server listens;
// - Next's protocol checks (lib/http/next-protocol.ts): Next's own parsers of its router state
//   header and of a Server Action request's kind;
// - the tests that call server actions as the browser does: React's Flight client, as Next ships it.
// Plain JavaScript, because the server loads it from the standalone build as it is.
import { createRequire } from 'node:module';
import path from 'node:path';

export { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state';
export { getServerActionRequestMetadata } from 'next/dist/server/lib/server-action-request-meta';

/** The module of React's Flight client that Next compiles in: it encodes server action arguments as a browser does. */
export const FLIGHT_CLIENT_MODULE = 'next/dist/compiled/react-server-dom-turbopack/client.node.js';

const HANDLER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Gives Next the build's resolved config as its generated standalone server.js does (an
 * undocumented variable Next reads when it loads).
 * @param {unknown} config required-server-files.json's `config`
 */
export function setStandaloneConfig(config) {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

/**
 * The config with Next's own preload off: Next starts it in the background when its server is
 * made, so the first requests after `listening` wait behind a quarter of a second (more on a busy
 * machine) of synchronous module loading. `preloadEntries` runs the same preload before listening.
 * @template {{ experimental?: object }} Config
 * @param {Config} config
 * @returns {Config}
 */
export function withoutBackgroundPreload(config) {
  return { ...config, experimental: { ...config.experimental, preloadEntriesOnStart: false } };
}

/**
 * Loads every page and route module now, as Next's `preloadEntriesOnStart` would in the
 * background: `next()` gives a custom server its `NextCustomServer`, whose `server` is the
 * `NextServer` its router made, whose `getServer()` is the `NextNodeServer` that has
 * `unstable_preloadEntries()`. False when this Next has none of these: then modules load on first use.
 * @param {any} app what `next()` returned, prepared
 * @returns {Promise<boolean>}
 */
export async function preloadEntries(app) {
  const nextServer = app?.server;
  if (typeof nextServer?.getServer !== 'function') return false;
  const server = await nextServer.getServer();
  if (typeof server?.unstable_preloadEntries !== 'function') return false;
  await server.unstable_preloadEntries();
  return true;
}

/**
 * Next's own compression middleware, the one its router puts on every answer, loaded from where
 * the standalone server loads Next.
 * @param {string} dir the standalone app's folder (where server.js is)
 * @returns {(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse, next: () => void) => void}
 */
export function nextCompression(dir) {
  return createRequire(path.join(dir, 'server.js'))('next/dist/compiled/compression')();
}

/**
 * Why a loaded route module is not the shape the direct path calls (empty when it is): Next's
 * AppRouteRouteModule, whose `userland` holds the handlers after `ensureUserland()`, for the node
 * runtime, rendered per request.
 * @param {string} page
 * @param {any} routeModule
 * @returns {string[]}
 */
export function checkRouteModule(page, routeModule) {
  const reasons = [];
  if (routeModule?.definition?.kind !== 'APP_ROUTE' || routeModule.definition.page !== `${page}/route`) {
    return [`${page}: the route module is not an app route for ${page}`];
  }
  const { userland } = routeModule;
  if (!userland || typeof userland !== 'object') return [`${page}: the route module has no userland`];
  if (!HANDLER_METHODS.some((method) => typeof userland[method] === 'function')) reasons.push(`${page}: no handler is exported`);
  if (userland.runtime !== undefined && userland.runtime !== 'nodejs') reasons.push(`${page}: runtime is ${userland.runtime}`);
  if (userland.dynamic !== undefined && userland.dynamic !== 'force-dynamic') reasons.push(`${page}: dynamic is ${userland.dynamic}`);
  for (const name of ['revalidate', 'generateStaticParams', 'maxDuration', 'fetchCache']) {
    if (userland[name] !== undefined) reasons.push(`${page}: exports ${name}`);
  }
  return reasons;
}

/**
 * The handlers of a compiled app route (its module's `routeModule.userland`, once loaded), or why
 * the direct path cannot call them.
 * @param {string} page such as /plants/[id]
 * @param {any} compiled what requiring the route's compiled route.js gives
 * @returns {Promise<{ handlers: Record<string, Function> } | { reasons: string[] }>}
 */
export async function routeHandlersOf(page, compiled) {
  const { routeModule } = compiled ?? {};
  if (typeof routeModule?.ensureUserland !== 'function') return { reasons: [`${page}: the route module has no ensureUserland()`] };
  await routeModule.ensureUserland();
  const reasons = checkRouteModule(page, routeModule);
  return reasons.length ? { reasons } : { handlers: routeModule.userland };
}
