// npm run build: the production build, as a self-contained server in .next/standalone.
// Next leaves the browser assets out of the standalone folder (a CDN may serve them); this app
// serves them itself, so they are copied in beside server.js, and so are the schemas and migrations
// (prisma/), which the server reads at start by a path the build does not trace (lib/db/migrate.ts).
// And server.js becomes this app's server (server/main.mjs, bundled), which answers the API's route
// handlers without Next's router.
// Last, npm start's steps (scripts/start.ts) and the operator commands are bundled into plain
// JavaScript beside it, with the packages they use, so starting the server does not wait for a
// TypeScript compiler (docs/performance.md#start-up) and a deployment needs neither tsx nor lib/.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildSync } from 'esbuild';
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

/** server/main.mjs, bundled with what it imports (server/*.mjs, and lib/ modules it shares with the handlers). */
export function installServer() {
  rmSync(`${STANDALONE_DIR}/plant-store-server`, { recursive: true, force: true });
  // Its packages go in the bundle: the standalone folder's node_modules holds only what Next's
  // tracer found the server needs, and the handlers' own chunks carry theirs inside them. But
  // prom-client, which Next loads from there (serverExternalPackages in next.config.js): the server
  // then shares the handlers' copy, and esbuild cannot bundle its require() of Node's modules as ESM.
  buildSync({
    ...bundleOptions,
    packages: 'bundle',
    external: ['prom-client'],
    entryPoints: ['server/main.mjs'],
    outfile: `${STANDALONE_DIR}/plant-store-server/main.mjs`,
  });
  writeFileSync(STANDALONE_SERVER, "// Written by npm run build: this app's server, see server/main.mjs.\nimport './plant-store-server/main.mjs';\n");
}

/** The start-up steps and the operator commands, with their packages but those above. */
export function bundleScripts() {
  for (const folder of [CLI_DIR, `${STANDALONE_DIR}/${SCRIPT_CHUNKS}`]) rmSync(folder, { recursive: true, force: true });
  buildSync({
    ...bundleOptions,
    entryPoints: [
      { in: 'scripts/start.ts', out: 'start' },
      ...CLI_SCRIPTS.map((name) => ({ in: `scripts/${name}.ts`, out: `cli/${name}` })),
    ],
    outdir: STANDALONE_DIR,
    outExtension: { '.js': '.mjs' },
    // What several of them import (lib/, the Prisma clients, pg) is written once, as chunks they share.
    splitting: true,
    chunkNames: `${SCRIPT_CHUNKS}/[name]-[hash]`,
    // pg-native: pg's optional native driver, which pg loads only when asked for it (never, here).
    external: [...UNBUNDLED_PACKAGES, 'pg-native'],
    // CommonJS packages inside an ESM bundle still call require() for Node's own modules.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  const engine = path.dirname(createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  cpSync(engine, `${STANDALONE_DIR}/node_modules/@prisma/schema-engine-wasm`, { recursive: true, dereference: true });
}

export function build() {
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
  installServer();
  bundleScripts();
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(build());
