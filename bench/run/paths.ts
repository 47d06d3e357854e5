// Where npm run bench finds what it runs, and where it writes.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next');
export const TSX_BIN = path.join(ROOT, 'node_modules/.bin/tsx');
// As package.json runs the operator commands: lib/'s server-only modules load under react-server.
export const TSX_CONDITIONS = ['--conditions=react-server'];
// The floor and the webhook receiver are plain JavaScript, run by node itself (no loader).
export const FLOOR_SERVER = path.join(ROOT, 'bench/floor-server.mjs');
export const WEBHOOK_RECEIVER = path.join(ROOT, 'bench/receiver.mjs');
// What production runs: one process that applies migrations, then serves (scripts/start.ts, bundled).
export const START_BUNDLE = path.join(ROOT, '.next/standalone/start.mjs');
export const RESULTS_DIR = path.join(ROOT, 'bench/results');
export const TMP_PARENT = path.join(ROOT, '.tmp');
export const TMP_DIR = path.join(TMP_PARENT, `bench-${process.pid}`);
