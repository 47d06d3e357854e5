// npm run build: the production build, as a self-contained server in .next/standalone.
// Next leaves the browser assets out of the standalone folder (a CDN may serve them); this app
// serves them itself, so they are copied in beside server.js.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

export const STANDALONE_SERVER = '.next/standalone/server.js';

export function copyAssetsIntoStandalone() {
  for (const [from, to] of [
    ['.next/static', '.next/standalone/.next/static'],
    ['public', '.next/standalone/public'],
  ]) {
    rmSync(to, { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, to, { recursive: true });
  }
}

export function build() {
  const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
  const result = spawnSync(process.execPath, [nextBin, 'build'], {
    stdio: 'inherit',
    env: { NEXT_TELEMETRY_DISABLED: '1', ...process.env },
  });
  if (result.status !== 0) return result.status ?? 1;
  copyAssetsIntoStandalone();
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(build());
