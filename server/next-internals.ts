// Next.js's private surface: every module under next/dist and every undocumented property or
// variable this app relies on, in this one file, so that upgrading Next means checking one file
// (the checklist is in docs/architecture.md, "Upgrading Next.js"). Nothing else may import next/dist
// (test/unit/next-internals.test.ts). Each item has a fallback for a Next that no longer has it,
// tested in test/unit/next-internals-fallbacks.test.ts; none of them decides whether the API is
// answered directly (server/direct-routes.ts calls the handlers from their source). What uses each:
// - Next's protocol checks (lib/http/next-protocol.ts), which turn Next's 500s for a malformed
//   router state header or Server Action body into 400s: Next's own parsers. Without them, the
//   request goes to Next unchecked (Next's 500, as on Vercel before these checks).
// - the production server (main.ts): the standalone config, as Next's generated server.js sets it,
//   and Next's preload of every page and route (but those the direct path answers), awaited before
//   the server listens. Without the preload, each loads on first use, and the server says so in one
//   line at start; without a way to leave routes out, it loads them all.
// - the tests that call server actions as the browser does: React's Flight client, as Next ships it.
import { createRequire } from 'node:module';
import path from 'node:path';
import * as actionMeta from 'next/dist/server/lib/server-action-request-meta';
import * as routerState from 'next/dist/server/app-render/parse-and-validate-flight-router-state';
import * as serverReferenceInfo from 'next/dist/shared/lib/server-reference-info';

/** The module of React's Flight client that Next compiles in: it encodes server action arguments as a browser does. */
export const FLIGHT_CLIENT_MODULE = 'next/dist/compiled/react-server-dom-turbopack/client.node.js';

/** `module[name]` when it is a function, else null: an export this Next may no longer have. */
export function exportedFunction<T extends (...args: never[]) => unknown>(module: object, name: string): T | null {
  const found = (module as Record<string, unknown>)[name];
  return typeof found === 'function' ? (found as T) : null;
}

/** Next's parser of its router state header (throws on one it cannot read), or null. */
export const parseAndValidateFlightRouterState = exportedFunction<(state: string | string[] | undefined) => unknown>(
  routerState,
  'parseAndValidateFlightRouterState',
);

/** Next's reading of a Server Action request's kind from its method and headers, or null. */
export const getServerActionRequestMetadata = exportedFunction<(request: Request) => { isMultipartAction: boolean; isFetchAction: boolean }>(
  actionMeta,
  'getServerActionRequestMetadata',
);

/** Next's test of whether a string has the shape of a Server Action's id, or null. */
export const mightBeServerReferenceId = exportedFunction<(id: string) => boolean>(serverReferenceInfo, 'mightBeServerReferenceId');

/**
 * Gives Next the build's resolved config as its generated standalone server.js does (an
 * undocumented variable Next reads when it loads). Without it, Next reads next.config from the
 * standalone folder, where there is none: its defaults.
 */
export function setStandaloneConfig(config: unknown): void {
  process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);
}

/**
 * The config with Next's own preload off: Next starts it in the background when its server is
 * made, so the first requests after `listening` wait behind a quarter of a second (more on a busy
 * machine) of synchronous module loading. `preloadEntries` runs the same preload before listening.
 * A Next that does not know the option ignores it.
 */
export function withoutBackgroundPreload<Config extends { experimental?: object }>(config: Config): Config {
  return { ...config, experimental: { ...config.experimental, preloadEntriesOnStart: false } };
}

/**
 * Loads the page and route modules now, as Next's `preloadEntriesOnStart` would in the background:
 * `next()` gives a custom server its `NextCustomServer`, whose `server` is the `NextServer` its
 * router made, whose `getServer()` is the `NextNodeServer` that has `unstable_preloadEntries()`.
 * That preload loads each app route its `getAppPathsManifest()` names; the routes in `leaveOut` are
 * taken out of what that method answers while it runs (the direct path answers them from the
 * server's own bundle, so Next's copy of them would only take memory; Next's router loads one on
 * first use if a request ever reaches it there). A Next without that method preloads them all.
 * @param app what `next()` returned, prepared
 * @param leaveOut app routes by page, as `/plants/[id]` (the file app/plants/[id]/route.ts)
 * @returns false when this Next has none of these (then every module loads on first use), else
 *   the routes left out of the preload
 */
export async function preloadEntries(app: unknown, leaveOut: readonly string[] = []): Promise<false | string[]> {
  const nextServer = (app as { server?: { getServer?: () => Promise<unknown> } } | null)?.server;
  if (typeof nextServer?.getServer !== 'function') return false;
  const server = (await nextServer.getServer()) as {
    unstable_preloadEntries?: () => Promise<void>;
    getAppPathsManifest?: () => unknown;
  } | null;
  if (typeof server?.unstable_preloadEntries !== 'function') return false;
  const manifest = leaveOut.length > 0 && typeof server.getAppPathsManifest === 'function' ? server.getAppPathsManifest() : null;
  const entries = manifest !== null && typeof manifest === 'object' ? (manifest as Record<string, unknown>) : {};
  const left = leaveOut.filter((page) => Object.hasOwn(entries, `${page}/route`));
  if (left.length === 0) {
    await server.unstable_preloadEntries();
    return [];
  }
  const leftKeys = new Set(left.map((page) => `${page}/route`));
  const kept = Object.fromEntries(Object.entries(entries).filter(([key]) => !leftKeys.has(key)));
  const ownMethod = Object.getOwnPropertyDescriptor(server, 'getAppPathsManifest');
  // Nothing else asks for the manifest meanwhile: the server does not listen yet.
  server.getAppPathsManifest = () => kept;
  try {
    await server.unstable_preloadEntries();
  } finally {
    if (ownMethod) Object.defineProperty(server, 'getAppPathsManifest', ownMethod);
    else delete server.getAppPathsManifest;
  }
  return left;
}

/** Whether a module's exports are a Turbopack chunk's: its modules' ids, each group followed by its factory. */
function isTurbopackChunk(exports: unknown): boolean {
  return Array.isArray(exports) && exports.length > 0 && typeof exports[exports.length - 1] === 'function';
}

/**
 * Lets go of the chunk files Next's Turbopack runtime has read: it requires each chunk file (a
 * list of module factories) and copies the factories it has not yet got into its own table, and
 * Node's module cache then keeps the list, so every factory and the file's whole source stay
 * alive. Several route and page bundles hold chunks of the same modules, so most of those factories
 * are copies the runtime never used (megabytes of source, several times over). Taken out of the
 * cache, a chunk the runtime asks for again is read again, and adds nothing it already has.
 * Modules that are not chunks of this shape are left alone, so a Next whose runtime loads chunks
 * otherwise keeps them all.
 * @param chunksDir the standalone build's `.next/server/chunks`
 * @returns how many chunk files were let go
 */
export function releaseLoadedChunks(chunksDir: string): number {
  const cache = createRequire(import.meta.url).cache;
  const prefix = chunksDir.endsWith(path.sep) ? chunksDir : chunksDir + path.sep;
  const released = new Set<unknown>();
  for (const [file, loaded] of Object.entries(cache)) {
    if (!file.startsWith(prefix) || !loaded || !isTurbopackChunk(loaded.exports)) continue;
    delete cache[file];
    released.add(loaded);
  }
  // The module that required a chunk (the runtime) lists it among its children.
  if (released.size > 0) {
    for (const loaded of Object.values(cache)) {
      if (loaded?.children.some((child) => released.has(child))) loaded.children = loaded.children.filter((child) => !released.has(child));
    }
  }
  return released.size;
}
