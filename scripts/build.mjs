// npm run build: the production build, as a self-contained server in .next/standalone.
// Next leaves the browser assets out of the standalone folder (a CDN may serve them); this app
// serves them itself, so they are copied in beside server.js. And server.js becomes this app's
// server (server/main.mjs, bundled), which answers the API's route handlers without Next's router.
// Last, npm start's steps (scripts/start.ts) are bundled into plain JavaScript, so starting the
// server does not wait for a TypeScript compiler (tsx took 0.65 s of every start).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { START_BUNDLE, STANDALONE_SERVER } from './paths.mjs';

export function copyAssetsIntoStandalone() {
  for (const [from, to] of [
    ['.next/static', '.next/standalone/.next/static'],
    ['public', '.next/standalone/public'],
  ]) {
    rmSync(to, { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, to, { recursive: true });
  }
}

// Packages load from node_modules at run time, as they do under tsx; `server-only` (which refuses
// to load outside Next's server) becomes its empty form, as in Next's own server bundles.
const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  alias: { 'server-only': './node_modules/server-only/empty.js' },
  logLevel: 'warning',
};

/** server/main.mjs, bundled with what it imports (server/*.mjs, and lib/ modules it shares with the handlers). */
export function installServer() {
  rmSync('.next/standalone/plant-store-server', { recursive: true, force: true });
  // Its packages go in the bundle: the standalone folder's node_modules holds only what Next's
  // tracer found the server needs, and the handlers' own chunks carry theirs inside them. But
  // prom-client, which Next loads from there (serverExternalPackages in next.config.js): the server
  // then shares the handlers' copy, and esbuild cannot bundle its require() of Node's modules as ESM.
  buildSync({
    ...bundleOptions,
    packages: 'bundle',
    external: ['prom-client'],
    entryPoints: ['server/main.mjs'],
    outfile: '.next/standalone/plant-store-server/main.mjs',
  });
  writeFileSync(STANDALONE_SERVER, "// Written by npm run build: this app's server, see server/main.mjs.\nimport './plant-store-server/main.mjs';\n");
}

export function bundleStartScript() {
  buildSync({
    ...bundleOptions,
    entryPoints: ['scripts/start.ts'],
    outfile: START_BUNDLE,
  });
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
  copyAssetsIntoStandalone();
  installServer();
  bundleStartScript();
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(build());
