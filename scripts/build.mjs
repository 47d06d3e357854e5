// npm run build: the production build, as a self-contained server in .next/standalone.
// Next leaves the browser assets out of the standalone folder (a CDN may serve them); this app
// serves them itself, so they are copied in beside server.js, and so are the schemas and migrations
// (prisma/), which the server reads at start by a path the build does not trace (lib/db/schema-engine.ts).
// And server.js becomes this app's server (server/main.ts, bundled with the API's route handlers
// from their source), which answers those handlers without Next's router.
// Last, npm start's steps (scripts/start.ts) and the operator commands are bundled into plain
// JavaScript beside it, with the packages they use, so starting the server does not wait for a
// TypeScript compiler (docs/performance.md#start-up) and a deployment needs neither tsx nor lib/.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build as esbuild } from 'esbuild';
import { CLI_DIR, STANDALONE_DIR, STANDALONE_SERVER } from './paths.mjs';

// Chromium's explicit compile hint (V8's `//# allFunctionsCalledOnLoad`, Chrome 136 on; other
// browsers read a comment): a script that starts with it is compiled whole as it downloads, on a
// background thread, instead of function by function on the page's main thread as each is first
// called. Given to the scripts every page runs as it loads (the build manifest's rootMainFiles:
// React, Next's client and Turbopack's runtime), much of which runs then; not to a page's own
// chunks, nor to those loaded on demand, such as the API explorer's (compiling what may never run
// costs CPU and memory).
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Starts each of the build's root main scripts with COMPILE_HINT (once: a second call changes nothing). */
export function hintCompileOnLoad() {
  const { rootMainFiles } = JSON.parse(readFileSync('.next/build-manifest.json', 'utf8'));
  for (const file of rootMainFiles) {
    const script = path.join('.next', file);
    const text = readFileSync(script, 'utf8');
    if (!text.startsWith(COMPILE_HINT)) writeFileSync(script, COMPILE_HINT + text);
  }
}

export function copyAssetsIntoStandalone() {
  for (const [from, to] of [
    ['.next/static', '.next/standalone/.next/static'],
    ['public', '.next/standalone/public'],
    ['prisma', '.next/standalone/prisma'],
  ]) {
    rmSync(to, { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, to, { recursive: true });
  }
}

// The operator commands the build bundles into .next/standalone/cli/<name>.mjs, each from
// scripts/<name>.ts: adding a command is adding its name here.
export const CLI_SCRIPTS = ['token', 'user', 'webhook', 'db-migrate', 'db'];

// Packages that cannot be bundled and load from .next/standalone/node_modules at run time:
// better-sqlite3 finds its compiled addon beside its own files (Next's tracer copies it there for the
// route handlers), and the migration engine reads its .wasm file beside its glue (copied in below).
const UNBUNDLED_PACKAGES = ['better-sqlite3', '@prisma/schema-engine-wasm'];
// Where the bundles' shared chunks go, inside .next/standalone.
const SCRIPT_CHUNKS = 'plant-store-scripts';

// `server-only` (which refuses to load outside Next's server) becomes its empty form, as in Next's
// own server bundles.
const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  alias: { 'server-only': './node_modules/server-only/empty.js' },
  logLevel: 'warning',
};

// Packages Next keeps out of its route bundles and requires from the standalone folder at run time
// (its default server externals this app uses), whose one copy the server shares. Next itself the
// server requires at run time (server/load-next.ts).
// Only whole packages: the tracer copies of some others only the files Next's chunks use.
const SHARED_PACKAGES = ['@prisma/client', 'pg', 'better-sqlite3', 'prom-client', '@opentelemetry/api'];

/** The package a bare import names (`@prisma/client/runtime/client`: `@prisma/client`), or null. */
function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || specifier.startsWith('@/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

// What the server imports of those packages is required from the standalone folder at run time,
// not bundled: so the process holds one copy, the one the route bundles also require (Prisma's
// client runtime alone, with its query compilers, is several times the rest of the bundle), and
// the server runs Next's own request handler, whose next/headers and next/server the route handlers
// import. Each such import becomes a CommonJS module that requires the package, as Next's chunks do
// (the same `require` condition, so the same files), through the bundle's createRequire.
function requireFromTheStandaloneFolder(packages) {
  return {
    name: 'require-from-the-standalone-folder',
    setup(build) {
      // The route handlers' modules may import of Next only what its router's requests do not need:
      // next/server's after(), which they call only on Vercel, is a stand-in (server/outside-next.ts);
      // next/headers has none, and importing it fails the build.
      build.onResolve({ filter: /^next\/(server|headers)(\.js)?$/ }, ({ path: specifier, importer }) =>
        specifier.startsWith('next/server')
          ? { path: path.resolve('server/outside-next.ts') }
          : { errors: [{ text: `${importer} imports ${specifier}: the production server calls the API's route handlers without Next's router, where it has no request to read` }] },
      );
      build.onResolve({ filter: /^[^./]/ }, ({ path: specifier, kind }) => {
        if (!packages.has(packageOf(specifier))) return undefined;
        // A dynamic import() stays one (Prisma's client loads its query compiler so, an ES module,
        // as Next's chunks do: the same file, so the same module).
        if (kind === 'require-call' || kind === 'dynamic-import') return { path: specifier, external: true };
        return { path: `${specifier}.cjs`, namespace: 'standalone-package', pluginData: specifier };
      });
      build.onLoad({ filter: /.*/, namespace: 'standalone-package' }, ({ pluginData: specifier }) => ({
        contents: `module.exports = require(${JSON.stringify(specifier)});`,
        loader: 'js',
        resolveDir: process.cwd(),
      }));
    },
  };
}

/** server/main.ts, bundled with what it imports (server/, the API's route handlers in app/, and the lib/ modules they use). */
export async function installServer() {
  rmSync(`${STANDALONE_DIR}/plant-store-server`, { recursive: true, force: true });
  // Its other packages go in the bundle: the standalone folder's node_modules holds only what Next's
  // tracer found the server needs, and the handlers' own chunks carry theirs inside them.
  await esbuild({
    ...bundleOptions,
    packages: 'bundle',
    plugins: [requireFromTheStandaloneFolder(new Set([...SHARED_PACKAGES, ...UNBUNDLED_PACKAGES]))],
    entryPoints: ['server/main.ts'],
    outfile: `${STANDALONE_DIR}/plant-store-server/main.mjs`,
    // The required packages' require(), and the CommonJS packages' calls for Node's own modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  writeFileSync(STANDALONE_SERVER, "// Written by npm run build: this app's server, see server/main.ts.\nimport './plant-store-server/main.mjs';\n");
}

// The modules lib/db/engine.ts picks an engine's parts from: each only makes the objects it exports
// from what it imports (no connection opened, nothing started), so a bundle that uses nothing of one
// may leave it out, with what only it imports. esbuild cannot tell that from the code (building a
// store object is a call), so it is told. npm start's bundle uses the tools alone, and so holds
// neither the stores nor a Prisma client (test/unit/start-bundle.test.ts).
const PICKED_MODULES = /[\\/]lib[\\/]db[\\/]((sqlite|postgresql)[\\/](engine|tools)|traced-engine)\.ts$/;

const pickedModulesWithoutSideEffects = {
  name: 'picked-modules-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /(engine|tools)$/ }, async ({ path: specifier, resolveDir, kind, pluginData }) => {
      if (pluginData === 'picked-module') return undefined;
      const resolved = await build.resolve(specifier, { resolveDir, kind, pluginData: 'picked-module' });
      if (resolved.errors.length > 0 || !PICKED_MODULES.test(resolved.path)) return resolved;
      return { ...resolved, sideEffects: false };
    });
  },
};

// Both steps of the bundles of scripts/: CommonJS packages inside an ESM bundle still call require()
// for Node's own modules; pg-native, pg's optional native driver, is loaded only when asked for (never, here).
const scriptOptions = {
  ...bundleOptions,
  outdir: STANDALONE_DIR,
  outExtension: { '.js': '.mjs' },
  external: [...UNBUNDLED_PACKAGES, 'pg-native'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [pickedModulesWithoutSideEffects],
};

/**
 * npm start's steps, in a bundle of their own: esbuild splits shared code by whole modules, so
 * start.mjs sharing chunks with the operator commands would load lib/db/engine.ts's chunk with the
 * stores the commands use. Alone, it keeps of each module only what it uses.
 */
export function startBundleOptions() {
  return { ...scriptOptions, entryPoints: [{ in: 'scripts/start.ts', out: 'start' }] };
}

/** The start-up steps and the operator commands, with their packages but those above. */
export async function bundleScripts() {
  for (const folder of [CLI_DIR, `${STANDALONE_DIR}/${SCRIPT_CHUNKS}`]) rmSync(folder, { recursive: true, force: true });
  await esbuild(startBundleOptions());
  await esbuild({
    ...scriptOptions,
    entryPoints: CLI_SCRIPTS.map((name) => ({ in: `scripts/${name}.ts`, out: `cli/${name}` })),
    // What several of them import (lib/, the Prisma clients, pg) is written once, as chunks they share.
    splitting: true,
    chunkNames: `${SCRIPT_CHUNKS}/[name]-[hash]`,
  });
  const engine = path.dirname(createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  cpSync(engine, `${STANDALONE_DIR}/node_modules/@prisma/schema-engine-wasm`, { recursive: true, dereference: true });
}

export async function build() {
  // The `next` command, found as npm finds it: the package's declared bin.
  const nextPackage = createRequire(import.meta.url).resolve('next/package.json');
  const nextBin = path.join(path.dirname(nextPackage), JSON.parse(readFileSync(nextPackage, 'utf8')).bin.next);
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    stdio: 'inherit',
    env: { NEXT_TELEMETRY_DISABLED: '1', ...process.env },
  });
  if (result.status !== 0) return result.status ?? 1;
  hintCompileOnLoad();
  copyAssetsIntoStandalone();
  await installServer();
  await bundleScripts();
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(await build());
