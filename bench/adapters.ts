// What converting between Node's request and response and the web's Request and Response costs on
// the direct path (server/direct-routes.ts), against a maintained adapter, @hono/node-server's
// getRequestListener: servers in this process call the same handler, the benchmark's ceiling
// (app/api/bench/empty: reads the body, answers a constant), and autocannon, a process of its own,
// sends each POST /api/bench/empty with a plant's JSON in turns. The direct path's servers go
// through its whole dispatch (matching, next.config.js's headers, and in one the compressor); the
// adapter's calls the handler alone. The adapter runs as this server would have to run it: without
// replacing the process's Request and Response, which Next's router shares (docs/performance.md,
// The direct path's adapter).
//   npm run bench:adapters -- [--duration S] [--rounds N]
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getRequestListener } from '@hono/node-server';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' } } });
// The ceiling answers only in a benchmark (lib/settings reads it on first use, below).
process.env.PLANT_STORE_BENCH_ROUTES = '1';
const { createCompression } = await import('../server/compression');
const { createDirectRoutes, ROUTE_MODULES } = await import('../server/direct-routes');
// The handler as the direct path has it (only server/direct-routes.ts imports route handlers).
const POST = ROUTE_MODULES['/api/bench/empty'].POST as (request: Request) => Promise<Response>;

const say = (line: string) => process.stdout.write(`[bench:adapters] ${line}\n`);

async function listen(handler: http.RequestListener): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/bench/empty`, close: () => server.close() };
}

const origin = 'http://127.0.0.1';
const direct = createDirectRoutes({ origin, compress: createCompression() });
const uncompressed = createDirectRoutes({ origin, compress: (_request, _response, next) => next() });
const servers = {
  'direct path (own conversion)': await listen((request, response) => {
    if (!direct.serve(request, response)) response.writeHead(404).end();
  }),
  'direct path without the compressor': await listen((request, response) => {
    if (!uncompressed.serve(request, response)) response.writeHead(404).end();
  }),
  '@hono/node-server getRequestListener': await listen(getRequestListener((request) => POST(request), { overrideGlobalObjects: false })),
};

const AUTOCANNON = path.resolve('node_modules/.bin/autocannon');
const BODY = JSON.stringify({ id: '9007199254740993', name: 'Monstera deliciosa', tags: ['aroid', 'indoor'] });

async function load(url: string, seconds: string): Promise<number> {
  // autocannon is a child process, so the servers here have this process's CPU to themselves.
  const child = spawn(AUTOCANNON, ['-j', '-c', '32', '-d', seconds, '-m', 'POST', '-H', 'content-type=application/json', '-b', BODY, url]);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (status !== 0) throw new Error(`autocannon exited ${status}`);
  const report = JSON.parse(output);
  if (report.non2xx || report.errors) throw new Error(`${url}: ${report.non2xx} answers not 2xx, ${report.errors} errors`);
  return report.requests.average;
}

const figures: Record<string, number[]> = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
for (const { url } of Object.values(servers)) await load(url, '1');
for (let round = 0; round < Number(values.rounds); round++) {
  const order = round % 2 === 0 ? Object.entries(servers) : Object.entries(servers).reverse();
  for (const [name, { url }] of order) figures[name].push(await load(url, values.duration!));
}
for (const [name, runs] of Object.entries(figures)) {
  const mean = runs.reduce((sum, value) => sum + value, 0) / runs.length;
  say(`${name}: ${runs.map((value) => value.toFixed(0)).join(', ')} req/s (mean ${mean.toFixed(0)})`);
}
for (const { close } of Object.values(servers)) close();
process.exit(0);
