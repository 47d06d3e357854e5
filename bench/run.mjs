#!/usr/bin/env node
// npm run bench: load-test the production server against a ceiling and a floor.
//
//   project POST /plants          the real route: auth, exact JSON, zod, SQLite insert, access log
//   project GET /plants?limit=20  the real list route
//   project GET /plants/{id}      one plant, with its ETag
//   project PATCH /plants/{id}    a merge patch that renames a plant each time: the update, its
//                                 audit record (before and after) and its outbox event
//   project GET /audit-events     the newest 20 audit records
//   ceiling POST /api/bench/empty an empty route handler in this same Next app (no auth, no DB):
//                                 what serving a route handler alone costs per request
//   Next's router: ...            the ceiling and POST /plants again, on the same build with
//                                 API_DIRECT_ROUTES=off, so every request goes through Next's router
//   metrics POST /plants          the project POST on two servers of the same build, one with
//                                 METRICS=off, measured in turns (on, off, off, on, ...) so the
//                                 machine's drift falls on both alike: what recording costs
//   floor POST/GET /plants        bench/floor-server.mjs: the same work on bare node:http and
//                                 better-sqlite3, no framework and no ORM
//   json                          reading a JSON body in-process (bench/json-parse.ts): the exact
//                                 parser's MB/s on a 2 MB batch, the bound pass's, and the refusal
//                                 of a body of a million ignored zeros
//   webhook POST /plants          the real route again, on a server with one webhook endpoint: every
//                                 create is also delivered, signed, to a local receiver
//                                 (bench/receiver.mjs) while the load runs; compared with the
//                                 typical Next.js + Prisma implementation (TYPICAL_POST_REQ_PER_SEC)
//
// The audit trail is always on: every project POST writes its audit record and its outbox event.
//
// Builds the app (unless --no-build or BENCH_SKIP_BUILD=1), makes a fresh SQLite database and an
// API token under .tmp/bench-<pid>/, starts what `npm start` runs (.next/standalone/start.mjs) (or `next start`
// with BENCH_SERVER=next-start), drives each target with autocannon after a warm-up whose results are
// discarded, samples the server's RSS every 100 ms, prints a table and writes the full results to
// bench/results/<timestamp>.json. Exits 1 when any target had an error or a non-2xx answer.
// Everything it started is stopped, and the temporary folder removed, on success, failure or Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { openDatabase as openFloorDatabase, registerToken } from './floor-server.mjs';
import { HEAP_LIMIT_FLAG } from '../server/heap-limit.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next');
const TSX_BIN = path.join(ROOT, 'node_modules/.bin/tsx');
// As package.json runs the operator commands: lib/'s server-only modules load under react-server.
const TSX_CONDITIONS = ['--conditions=react-server'];
const FLOOR_SERVER = path.join(ROOT, 'bench/floor-server.mjs');
const WEBHOOK_RECEIVER = path.join(ROOT, 'bench/receiver.mjs');
// A typical first Next.js + Prisma implementation of POST /plants measured 330-535 req/s on this
// project's machine; the webhook target is held against the top of that range.
const TYPICAL_POST_REQ_PER_SEC = 535;
// What production runs: one process that applies migrations, then serves (scripts/start.ts, bundled).
const START_BUNDLE = path.join(ROOT, '.next/standalone/start.mjs');
const RESULTS_DIR = path.join(ROOT, 'bench/results');
const TMP_PARENT = path.join(ROOT, '.tmp');
const TMP_DIR = path.join(TMP_PARENT, `bench-${process.pid}`);

const USAGE = `usage: npm run bench -- [options]

  --target LIST       targets to run, repeatable or comma-separated:
                      post, get, get-one, patch, audit, ceiling, next (= next-ceiling + next-post), next-ceiling,
                      next-post, metrics (POST /plants with metrics on and off, in turns),
                      floor (= floor-post + floor-get), floor-post, floor-get,
                      webhook, json (reading JSON bodies, in-process: bench/json-parse.ts),
                      catalogue (batch, search and export on 100,000 plants, SQLite
                      and PostgreSQL: bench/catalogue.ts),
                      instances (POST /plants on PostgreSQL, one server and two:
                      bench/instances.ts)
                      (default: all)
  --duration S        measured seconds per target (default 10; 3 with --quick)
  --warmup S          warm-up seconds per target, results discarded (default 3; 1 with --quick)
  --connections N     concurrent connections (default 32)
  --rounds N          metrics: measured runs of each server, in turns (default 4)
  --quick             smoke check: 1 s warm-up, 3 s measured
  --no-build          use the existing .next build (also BENCH_SKIP_BUILD=1)
  --sqlite-synchronous MODE
                      NORMAL or FULL: the app servers' SQLITE_SYNCHRONOUS (default: the
                      environment's, else the server's default, FULL; see lib/db/durability.ts)
  -h, --help          this text

  BENCH_SERVER=next-start   serve with next start instead of .next/standalone/start.mjs
  BENCH_CPU_PROF=<dir>      run the app server under node --cpu-prof; the profile (open it in
                            Chrome DevTools or speedscope) is written to <dir> when it stops`;

const TARGETS = [
  { key: 'ceiling', label: 'ceiling POST /api/bench/empty', server: 'app', method: 'POST', path: '/api/bench/empty' },
  { key: 'post', label: 'project POST /plants', server: 'app', method: 'POST', path: '/plants', stores: true },
  { key: 'get', label: 'project GET /plants?limit=20', server: 'app', method: 'GET', path: '/plants?limit=20' },
  { key: 'get-one', label: 'project GET /plants/{id}', server: 'app', method: 'GET', path: '/plants/1', answers: /^\{"id":1,/ },
  {
    key: 'patch',
    label: 'project PATCH /plants/{id}',
    server: 'app',
    method: 'PATCH',
    path: '/plants/2',
    contentType: 'application/merge-patch+json',
    body: () => `{"name":"Seed plant 2, renamed ${renames++}"}`,
  },
  { key: 'audit', label: 'project GET /audit-events?limit=20', server: 'app', method: 'GET', path: '/audit-events?limit=20', answers: /^\[\{"id":/ },
  // The same build with API_DIRECT_ROUTES=off: every request through Next's router.
  { key: 'next-ceiling', label: "Next's router: ceiling POST /api/bench/empty", server: 'next', method: 'POST', path: '/api/bench/empty' },
  { key: 'next-post', label: "Next's router: project POST /plants", server: 'next', method: 'POST', path: '/plants', stores: true },
  // Two servers of the same build, METRICS on and off, measured in turns (compareMetrics).
  { key: 'metrics', label: 'project POST /plants, metrics on / off', server: 'metrics', method: 'POST', path: '/plants' },
  { key: 'floor-post', label: 'floor POST /plants', server: 'floor', method: 'POST', path: '/plants', stores: true },
  { key: 'floor-get', label: 'floor GET /plants?limit=20', server: 'floor', method: 'GET', path: '/plants?limit=20' },
  // The same build with one webhook endpoint: each create is delivered to bench/receiver.mjs.
  { key: 'webhook', label: 'project POST /plants, 1 webhook endpoint', server: 'webhook', method: 'POST', path: '/plants', stores: true },
  // In-process, no server (bench/json-parse.ts).
  { key: 'json', label: 'reading JSON bodies', server: 'json' },
  // Its own servers and databases, one per engine (bench/catalogue.ts); --duration is its search load's.
  { key: 'catalogue', label: 'catalogue on 100,000 plants', server: 'catalogue' },
  // Its own servers and PostgreSQL database (bench/instances.ts); --duration is its load's.
  { key: 'instances', label: 'POST /plants on PostgreSQL, one instance and two', server: 'instances' },
];
const TARGET_ALIASES = {
  floor: ['floor-post', 'floor-get'],
  next: ['next-ceiling', 'next-post'],
  all: TARGETS.map((target) => target.key),
};
const SEED_PLANTS = 100;

class UsageError extends Error {}
class Interrupted extends Error {}

const say = (line) => process.stdout.write(`[bench] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Options

function readOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        target: { type: 'string', multiple: true },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        rounds: { type: 'string' },
        quick: { type: 'boolean', default: false },
        'no-build': { type: 'boolean', default: false },
        'sqlite-synchronous': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const positive = (text, name, fallback, { integer = false } = {}) => {
    if (text === undefined) return fallback;
    const value = Number(text);
    if (!(value > 0) || (integer && !Number.isInteger(value))) throw new UsageError(`--${name} must be a positive ${integer ? 'whole ' : ''}number`);
    return value;
  };
  const keys = new Set();
  for (const item of (values.target ?? ['all']).flatMap((text) => text.split(','))) {
    const name = item.trim().toLowerCase();
    if (!name) continue;
    const expanded = TARGET_ALIASES[name] ?? (TARGETS.some((target) => target.key === name) ? [name] : null);
    if (!expanded) throw new UsageError(`unknown target "${item}" (post, get, get-one, patch, audit, ceiling, next, next-ceiling, next-post, metrics, floor, floor-post, floor-get, webhook, json, catalogue, instances)`);
    expanded.forEach((key) => keys.add(key));
  }
  if (keys.size === 0) throw new UsageError('--target names no target');

  const synchronous = (values['sqlite-synchronous'] ?? process.env.SQLITE_SYNCHRONOUS ?? 'FULL').trim().toUpperCase();
  if (!['FULL', 'NORMAL'].includes(synchronous)) throw new UsageError(`--sqlite-synchronous must be NORMAL or FULL, not "${synchronous}"`);

  const server = process.env.BENCH_SERVER?.trim() || 'standalone';
  if (!['next-start', 'standalone'].includes(server)) throw new UsageError(`BENCH_SERVER must be standalone or next-start, not "${server}"`);
  return {
    targets: TARGETS.filter((target) => keys.has(target.key)),
    duration: positive(values.duration, 'duration', values.quick ? 3 : 10),
    warmup: positive(values.warmup, 'warmup', values.quick ? 1 : 3),
    connections: positive(values.connections, 'connections', 32, { integer: true }),
    rounds: positive(values.rounds, 'rounds', 4, { integer: true }),
    quick: values.quick,
    build: !(values['no-build'] || process.env.BENCH_SKIP_BUILD === '1'),
    serverMode: server,
    sqliteSynchronous: synchronous,
  };
}

// ---------------------------------------------------------------------------------------------
// Processes: every server is tracked here, so cleanup can always stop it.

const servers = new Set();
let currentCannon = null;
let interrupted = false;

function checkInterrupted() {
  if (interrupted) throw new Interrupted('interrupted');
}

const helpers = new Set();

/**
 * Runs a helper command (next build, tsx) to completion; rejects with its output when it fails.
 * It gets its own process group, like the servers, so stopping it reaches the process tsx starts.
 */
function runCommand(label, command, args, { env = process.env, capture = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', capture ? 'pipe' : 'inherit', capture ? 'pipe' : 'inherit'],
      detached: true,
    });
    const helper = {
      label,
      child,
      pid: child.pid,
      seenPids: new Set([child.pid]),
      exited: new Promise((done) => child.once('exit', done)),
      alive: () => child.exitCode === null && child.signalCode === null,
    };
    helpers.add(helper);
    helper.exited.then(() => helpers.delete(helper));
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${label} failed (${signal ?? `exit ${code}`})${capture ? `:\n${stderr || stdout}` : ''}`));
    });
  });
}

/**
 * Starts a server in its own process group (so a stray worker could be signalled with it, and the
 * terminal's Ctrl-C reaches us, not it). Its stdout, one access-log line per request, goes to
 * /dev/null ('ignore'): the write still happens, as in production, but nobody has to read it.
 * stderr is kept (the last 16 KiB) for error messages.
 */
function spawnServer(label, args, env) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-16384)));
  const server = {
    label,
    child,
    pid: child.pid,
    seenPids: new Set([child.pid]),
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
    alive: () => child.exitCode === null && child.signalCode === null,
    stderr: () => stderr,
  };
  child.on('error', (error) => (stderr += `\n${error.message}`));
  servers.add(server);
  return server;
}

function signalGroup(server, signal) {
  try {
    process.kill(-server.pid, signal);
  } catch {
    try {
      server.child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function processGroupOf(pid) {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces, so split after ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return null;
  }
}

/** SIGTERM, then SIGKILL after 5 s; then any process it forked that is still in its group. */
async function stopProcess(server) {
  if (server.alive()) {
    signalGroup(server, 'SIGTERM');
    const stopped = await Promise.race([server.exited.then(() => true), sleep(5000).then(() => false)]);
    if (!stopped) {
      say(`${server.label} (pid ${server.pid}) ignored SIGTERM for 5 s: SIGKILL`);
      signalGroup(server, 'SIGKILL');
      await server.exited;
    }
  }
  for (const pid of server.seenPids) {
    if (pid !== server.pid && processGroupOf(pid) === server.pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
  servers.delete(server);
  helpers.delete(server);
}

let cleaning = null;
function cleanup() {
  return (cleaning ??= (async () => {
    currentCannon?.stop();
    // Helpers first: a migration still running would create the database folder again.
    await Promise.all([...helpers, ...servers].map((owned) => stopProcess(owned)));
    removeTemporaryFiles();
  })());
}

function removeTemporaryFiles() {
  rmSync(TMP_DIR, { recursive: true, force: true });
  try {
    rmdirSync(TMP_PARENT); // only if nothing else lives there
  } catch {
    // not empty, or already gone
  }
}

// Last resort if we exit without cleanup (an uncaught error): nothing may outlive us.
process.on('exit', () => {
  for (const server of servers) if (server.alive()) signalGroup(server, 'SIGKILL');
  for (const helper of helpers) if (helper.alive()) signalGroup(helper, 'SIGKILL');
  removeTemporaryFiles();
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n[bench] ${signal}: stopping servers and removing ${path.relative(ROOT, TMP_DIR)}\n`);
    cleanup().finally(() => process.exit(130));
  });
}

// ---------------------------------------------------------------------------------------------
// Memory: VmRSS of the server process and every descendant, from /proc.

function readRssKb(pid) {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

const procChildrenAvailable = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

function childPids(pid) {
  if (procChildrenAvailable) {
    try {
      return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
        try {
          return readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
        } catch {
          return [];
        }
      });
    } catch {
      return [];
    }
  }
  return psChildren(pid);
}

function psChildren(pid) {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

function processTree(pid) {
  const all = [pid];
  for (let index = 0; index < all.length; index++) all.push(...childPids(all[index]));
  return all;
}

function treeRssKb(server) {
  const pids = processTree(server.pid);
  pids.forEach((pid) => server.seenPids.add(pid));
  return { kb: pids.reduce((sum, pid) => sum + readRssKb(pid), 0), processes: pids.length };
}

/** Samples the server's RSS every 100 ms until the returned function is called. */
function sampleRss(server) {
  let peakKb = 0;
  let samples = 0;
  let processes = 0;
  const tick = () => {
    const now = treeRssKb(server);
    peakKb = Math.max(peakKb, now.kb);
    processes = Math.max(processes, now.processes);
    samples++;
  };
  tick();
  const timer = setInterval(tick, 100);
  return () => {
    clearInterval(timer);
    tick();
    return { peakMb: peakKb ? peakKb / 1024 : null, samples, processes };
  };
}

function describeProcess(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((part) => (part.startsWith(`${ROOT}${path.sep}`) ? path.relative(ROOT, part) : part))
      .join(' ');
  } catch {
    return '?';
  }
}

// ---------------------------------------------------------------------------------------------
// Setup: build, database, token, servers

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitHealthy(server, url) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    checkInterrupted();
    if (!server.alive()) {
      const { code, signal } = await server.exited;
      throw new Error(`${server.label} exited (${signal ?? `code ${code}`}) before it was ready:\n${server.stderr()}`);
    }
    try {
      const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${server.label} did not answer GET /api/health with 200 within 60 s:\n${server.stderr()}`);
    await sleep(100);
  }
}

function reportServerProcess(server) {
  const tree = processTree(server.pid);
  const viaPs = psChildren(server.pid);
  const rss = treeRssKb(server);
  say(`${server.label}: pid ${server.pid} (${describeProcess(server.pid)}), idle RSS ${(rss.kb / 1024).toFixed(1)} MB`);
  say(
    tree.length > 1
      ? `${server.label}: it has ${tree.length - 1} descendant process(es) (${tree.slice(1).map((pid) => `${pid} ${describeProcess(pid)}`).join('; ')}); RSS is summed over all of them`
      : `${server.label}: no child processes (ps --ppid ${server.pid}: ${viaPs.length ? viaPs.join(' ') : 'none'}); RSS is this one process`,
  );
  return { pid: server.pid, command: describeProcess(server.pid), descendants: tree.length - 1, idleRssMb: rss.kb / 1024 };
}

/** node flags for BENCH_CPU_PROF: the profile is written when the server exits on SIGTERM. */
function profilerArgs() {
  const dir = process.env.BENCH_CPU_PROF?.trim();
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`, '--cpu-prof-interval=250'] : [];
}

// One per run: the servers and the command that makes the webhook endpoint share it, since the
// endpoint's signing secret is stored encrypted under a key derived from it.
const BENCH_AUTH_SECRET = `bench-${randomBytes(24).toString('hex')}`;

async function startAppServer(options, databaseFile, extraEnv = {}) {
  const port = await freePort();
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    AUTH_SECRET: BENCH_AUTH_SECRET,
    DATABASE_URL: `file:${databaseFile}`,
    PLANT_STORE_BENCH_ROUTES: '1',
    // The limiter stays on (its cost is measured) but far above what one token can send here.
    RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '1000000000',
    // As production runs it, with only its heap cap (below); BENCH_SERVER_NODE_OPTIONS adds flags to compare.
    NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS ?? '',
    SQLITE_SYNCHRONOUS: options.sqliteSynchronous,
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    ...extraEnv,
  };
  let server;
  if (options.serverMode === 'standalone') {
    const standaloneDir = path.dirname(START_BUNDLE);
    // next build leaves static assets out of the standalone folder; a deployment copies them in.
    for (const [from, to] of [
      [path.join(ROOT, '.next/static'), path.join(standaloneDir, '.next/static')],
      [path.join(ROOT, 'public'), path.join(standaloneDir, 'public')],
    ]) {
      if (existsSync(from) && !existsSync(to)) cpSync(from, to, { recursive: true });
    }
    // The heap cap npm start and the image pass (server/heap-limit.mjs); BENCH_HEAP_LIMIT=off leaves V8's own sizing.
    const heapFlags = process.env.BENCH_HEAP_LIMIT === 'off' ? [] : [HEAP_LIMIT_FLAG];
    server = spawnServer('standalone server', [...heapFlags, ...profilerArgs(), START_BUNDLE], env);
  } else {
    server = spawnServer('next start', [...profilerArgs(), NEXT_BIN, 'start', '--port', String(port), '--hostname', '127.0.0.1'], env);
  }
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(server, url);
  return { server, url, process: reportServerProcess(server) };
}

async function startFloorServer(databaseFile, token) {
  const port = await freePort();
  // The token goes by environment, not argv, so it does not show in ps or in the results.
  const server = spawnServer('floor server', [FLOOR_SERVER], {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOSTNAME: '127.0.0.1',
    DATABASE: databaseFile,
    TOKEN: token,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(server, url);
  return { server, url, process: reportServerProcess(server) };
}

async function startWebhookReceiver() {
  const port = await freePort();
  const receiver = spawnServer('webhook receiver', [WEBHOOK_RECEIVER], { ...process.env, PORT: String(port), HOSTNAME: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(receiver, url);
  return { server: receiver, url };
}

/**
 * After the webhook target's load: how long until every event it made was delivered (the
 * dispatcher works through a backlog after the load stops), and whether any delivery failed.
 */
async function drainDeliveries(databaseFile, receiverUrl) {
  const connection = new Database(databaseFile, { readonly: true, timeout: 5000 });
  const started = Date.now();
  try {
    const state = () =>
      connection
        .prepare(
          `SELECT (SELECT count(*) FROM "WebhookEvent" WHERE "fannedOut" = 0) AS "unfanned",
                  (SELECT count(*) FROM "WebhookDelivery" WHERE "status" IN ('pending', 'delivering')) AS "open",
                  (SELECT count(*) FROM "WebhookDelivery" WHERE "status" = 'succeeded') AS "succeeded",
                  (SELECT count(*) FROM "WebhookDelivery" WHERE "status" = 'failed') AS "failed",
                  (SELECT max("attempts") FROM "WebhookDelivery") AS "maxAttempts"`,
        )
        .get();
    let now = state();
    while ((now.unfanned > 0 || now.open > 0) && Date.now() - started < 120_000) {
      checkInterrupted();
      await sleep(250);
      now = state();
    }
    const received = (await (await fetch(`${receiverUrl}/api/health`)).json()).received;
    const drained = now.unfanned === 0 && now.open === 0;
    return { drainSeconds: (Date.now() - started) / 1000, drained, delivered: now.succeeded, failed: now.failed, maxAttempts: now.maxAttempts, received };
  } finally {
    connection.close();
  }
}

/** The file's journal mode (synchronous is per connection: the server sets it, SQLITE_SYNCHRONOUS). */
function databasePragmas(file) {
  const connection = new Database(file, { timeout: 5000 });
  try {
    connection.prepare('SELECT count(*) FROM sqlite_master').get(); // open the file for real
    return { journal_mode: connection.pragma('journal_mode', { simple: true }) };
  } finally {
    connection.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Load

// Ids start above 2^53, where a float would round them, and never repeat within a run (warm-up,
// measured run, preflight and every target share this counter).
let nextId = 2n ** 53n + 1n;
const plantBody = () => `{"id":${nextId++},"name":"Bench fern","tag":"bench"}`;
let renames = 0;
/** The body of the target's next request: a fresh plant for every POST, or the target's own. */
const bodyOf = (target) => (target.body ? target.body() : target.method === 'POST' ? plantBody() : undefined);

function requestHeaders(target, token) {
  const headers = { authorization: `Bearer ${token}` };
  if (target.contentType || target.method === 'POST') headers['content-type'] = target.contentType ?? 'application/json';
  return headers;
}

function runCannon(options) {
  return new Promise((resolve, reject) => {
    currentCannon = autocannon(options, (error, result) => {
      currentCannon = null;
      if (error) reject(error);
      else resolve(result);
    });
  });
}

function cannonOptions(target, url, token, seconds, connections) {
  return {
    url: `${url}${target.path}`,
    method: target.method,
    headers: requestHeaders(target, token),
    connections,
    duration: seconds,
    // Every POST (the ceiling's too, so the client's work is the same) gets a fresh id.
    requests: bodyOf(target) === undefined ? undefined : [{ setupRequest: (request) => ({ ...request, body: bodyOf(target) }) }],
  };
}

/** One request before the load, so a broken target says why instead of failing 100 000 times. */
async function preflight(target, url, token) {
  const response = await fetch(`${url}${target.path}`, {
    method: target.method,
    headers: requestHeaders(target, token),
    body: bodyOf(target),
  });
  const text = await response.text();
  let problem = null;
  if (!response.ok) {
    problem = `answered ${response.status}: ${text.slice(0, 300)}`;
    if (target.path === '/api/bench/empty' && response.status === 404) problem += ' (stale build? run without --no-build)';
  } else if (target.method === 'GET' && !(target.answers ?? /^\[\{"id":\d+/).test(text)) {
    problem = `answered 200 without what it should (${target.answers ?? 'a list of plants'}): ${text.slice(0, 300)}`;
  }
  return { status: response.status, ok: !problem, problem };
}

function summarise(result) {
  return {
    reqPerSec: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    latencyAvg: result.latency.average,
    '2xx': result['2xx'],
    non2xx: result.non2xx,
    // autocannon counts every timeout in `errors` as well; `timeouts` is the part that timed out.
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodeStats: result.statusCodeStats,
    sent: result.requests.sent,
    completed: result.requests.total,
    duration: result.duration,
  };
}

async function runTarget(target, running, token, options) {
  say(`${target.label}: preflight`);
  const check = await preflight(target, running.url, token);
  const record = { key: target.key, label: target.label, method: target.method, path: target.path, preflight: check };
  if (!check.ok) {
    say(`${target.label}: ${check.problem}; skipped`);
    return { ...record, failed: true, failure: check.problem };
  }
  checkInterrupted();
  say(`${target.label}: warm-up ${options.warmup} s (discarded)`);
  const warmup = await runCannon(cannonOptions(target, running.url, token, options.warmup, options.connections));
  checkInterrupted();
  await sleep(500);
  say(`${target.label}: measuring ${options.duration} s at ${options.connections} connections`);
  const stopSampling = sampleRss(running.server);
  const result = await runCannon(cannonOptions(target, running.url, token, options.duration, options.connections));
  const rss = stopSampling();
  checkInterrupted();
  const summary = summarise(result);
  const failures = summary.errors + summary.non2xx;
  if (failures) say(`${target.label}: ${failures} failed requests: ${JSON.stringify(summary.statusCodeStats)}${summary.errors ? `, ${summary.errors} errors (${summary.timeouts} timeouts)` : ''}`);
  await sleep(500);
  return { ...record, failed: failures > 0, ...summary, peakRssMb: rss.peakMb, rssSamples: rss.samples, processes: rss.processes, warmup: summarise(warmup), autocannon: result };
}

/**
 * Plants the POST target stored (tag "bench"). Each 2xx answer (preflight, warm-up, run) is one
 * stored plant. When a run's time is up, autocannon closes its connections without waiting for the
 * requests still in flight (one per connection); the server completes those too, so they may be
 * stored without an answer being counted. So: 2xx answers <= stored <= 2xx answers + unanswered.
 */
async function checkStored(record, databaseFile) {
  const connection = new Database(databaseFile, { readonly: true, timeout: 5000 });
  connection.defaultSafeIntegers(true);
  try {
    const count = () => Number(connection.prepare(`SELECT count(*) AS n FROM "Plant" WHERE "tag" = 'bench'`).get().n);
    let stored = count();
    for (let settle = 0; settle < 20; settle++) {
      await sleep(200);
      const again = count();
      if (again === stored) break;
      stored = again;
    }
    const range = connection.prepare(`SELECT min("id") AS lo, max("id") AS hi FROM "Plant" WHERE "tag" = 'bench'`).get();
    const answered2xx = (record.preflight.status < 300 ? 1 : 0) + record.warmup['2xx'] + record['2xx'];
    const unanswered = record.warmup.sent - record.warmup.completed + (record.sent - record.completed);
    const idsInRange = range.lo !== null && range.lo > 2n ** 53n && range.hi < nextId;
    const ok = stored >= answered2xx && stored <= answered2xx + unanswered && idsInRange;
    return { stored, answered2xx, unanswered, minId: String(range.lo), maxId: String(range.hi), ok };
  } finally {
    connection.close();
  }
}

// /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux (getconf CLK_TCK).
const CLOCK_TICKS_PER_SECOND = 100;

/** The CPU seconds (user and system) process `pid` has used so far. */
function cpuSecondsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

/**
 * What recording the metrics costs POST /plants on the direct path: two servers of the same build on
 * copies of one database, one with METRICS=off, each warmed up, then measured `rounds` times each in
 * turns, the order swapped every round (on, off, off, on, ...), so a machine that speeds up or slows
 * down during the run weighs on both alike. Only one server is under load at a time. Besides req/s,
 * the server's CPU time per answered request: a busy machine moves it far less than req/s, since it
 * counts only the server's own work, not the time it waited for a core.
 */
async function compareMetrics(options, token, databases) {
  const target = TARGETS.find((candidate) => candidate.key === 'metrics');
  say('metrics: starting two standalone servers, METRICS on and METRICS=off');
  const servers = {};
  try {
    servers.on = await startAppServer(options, databases.on);
    servers.off = await startAppServer(options, databases.off, { METRICS: 'off' });
    for (const name of ['on', 'off']) {
      const check = await preflight(target, servers[name].url, token);
      if (!check.ok) throw new Error(`metrics ${name}: ${check.problem}`);
      checkInterrupted();
      say(`metrics ${name}: warm-up ${options.warmup} s (discarded)`);
      await runCannon(cannonOptions(target, servers[name].url, token, options.warmup, options.connections));
      await sleep(500);
    }
    const rounds = [];
    let failures = 0;
    for (let round = 0; round < options.rounds; round++) {
      const figures = {};
      for (const name of round % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
        checkInterrupted();
        const cpuBefore = cpuSecondsOf(servers[name].server.pid);
        const result = summarise(await runCannon(cannonOptions(target, servers[name].url, token, options.duration, options.connections)));
        const cpuMicrosecondsPerRequest = ((cpuSecondsOf(servers[name].server.pid) - cpuBefore) / result.completed) * 1e6;
        failures += result.errors + result.non2xx;
        figures[name] = { reqPerSec: result.reqPerSec, p50: result.p50, p99: result.p99, cpuMicrosecondsPerRequest };
        await sleep(500);
      }
      rounds.push({ ...figures, ratio: figures.on.reqPerSec / figures.off.reqPerSec, cpuRatio: figures.on.cpuMicrosecondsPerRequest / figures.off.cpuMicrosecondsPerRequest });
      say(
        `metrics round ${round + 1}: on ${figures.on.reqPerSec.toFixed(0)} req/s, ${figures.on.cpuMicrosecondsPerRequest.toFixed(0)} µs CPU a request; ` +
          `off ${figures.off.reqPerSec.toFixed(0)} req/s, ${figures.off.cpuMicrosecondsPerRequest.toFixed(0)} µs`,
      );
    }
    const mean = (name, key) => rounds.reduce((sum, round) => sum + round[name][key], 0) / rounds.length;
    const summary = (name) => ({ reqPerSec: mean(name, 'reqPerSec'), p50: mean(name, 'p50'), p99: mean(name, 'p99'), cpuMicrosecondsPerRequest: mean(name, 'cpuMicrosecondsPerRequest') });
    const median = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = sorted.length / 2;
      return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
    };
    return {
      rounds,
      on: summary('on'),
      off: summary('off'),
      ratio: mean('on', 'reqPerSec') / mean('off', 'reqPerSec'),
      medianRatio: median(rounds.map((round) => round.ratio)),
      cpuRatio: mean('on', 'cpuMicrosecondsPerRequest') / mean('off', 'cpuMicrosecondsPerRequest'),
      medianCpuRatio: median(rounds.map((round) => round.cpuRatio)),
      failures,
      servers: { on: servers.on.process, off: servers.off.process },
    };
  } finally {
    for (const running of Object.values(servers)) await stopProcess(running.server);
  }
}

// ---------------------------------------------------------------------------------------------
// Report

function formatNumber(value, digits = 1) {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Latencies: whole milliseconds as autocannon records them, a decimal if there is one. */
const formatMs = (value) => formatNumber(value, Number.isInteger(value) ? 0 : 1);

function table(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('   ').trimEnd()).join('\n');
}

function report(run) {
  const lines = [];
  lines.push('');
  lines.push(`Plant Store benchmark, ${run.startedAt}`);
  lines.push(`machine: ${run.machine.cpu} x ${run.machine.cores} cores, ${run.machine.memoryGb} GB, ${run.machine.platform}, node ${run.machine.node}`);
  lines.push(`load average at start: ${run.machine.loadAverageStart.map((value) => value.toFixed(2)).join(' ')}, at end: ${run.machine.loadAverageEnd.map((value) => value.toFixed(2)).join(' ')}`);
  const appServer = run.serverMode === 'standalone' ? 'standalone (.next/standalone/start.mjs: migrations, then the server in the same process; route handlers answered directly)' : 'next start';
  lines.push(`server: ${run.servers.app || run.servers.next || run.servers.webhook || run.servers.metrics ? `${appServer}, NODE_ENV=production` : 'not run'}; floor: ${run.servers.floor ? 'bench/floor-server.mjs' : 'not run'}`);
  if (run.servers.next) lines.push("Next's router: the same server with API_DIRECT_ROUTES=off");
  if (run.servers.webhook) lines.push('webhook: the same server with one webhook endpoint, delivering to bench/receiver.mjs on this machine');
  if (run.servers.metrics) lines.push('metrics: the same server twice, one with METRICS=off, measured in turns');
  lines.push(`load: autocannon, ${run.options.connections} connections, ${run.options.duration} s measured after ${run.options.warmup} s warm-up`);
  lines.push('');
  const rows = [['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB']];
  for (const target of run.targets) {
    rows.push(
      target.failure
        ? [target.label, 'failed', '', '', '', '']
        : [
            target.label,
            formatNumber(target.reqPerSec),
            formatMs(target.p50),
            formatMs(target.p99),
            formatNumber(target.errors + target.non2xx, 0),
            formatNumber(target.peakRssMb),
          ],
    );
  }
  if (rows.length > 1) lines.push(table(rows));
  if (run.ratios.length) {
    lines.push('');
    lines.push('ratios (req/s):');
    lines.push(table(run.ratios.map((ratio) => [`  ${ratio.name}`, ratio.value.toFixed(2)])));
  }
  for (const target of run.targets) {
    if (!target.deliveries) continue;
    const d = target.deliveries;
    lines.push('');
    lines.push(
      `${target.label}: ${d.delivered.toLocaleString('en-US')} deliveries succeeded (receiver counted ${d.received.toLocaleString('en-US')}), ` +
        `${d.failed} failed, at most ${d.maxAttempts} attempts each; the last was delivered ${d.drainSeconds.toFixed(1)} s after the load stopped`,
    );
  }
  for (const check of run.storedChecks) {
    lines.push('');
    lines.push(
      `${check.label}: stored ${check.stored.toLocaleString('en-US')} plants = ` +
        `${check.answered2xx.toLocaleString('en-US')} 2xx answers (preflight + warm-up + run) + ` +
        `${check.stored - check.answered2xx} of the ${check.unanswered} requests in flight when autocannon stopped; ` +
        `ids ${check.minId}..${check.maxId}${check.ok ? '' : '  <-- MISMATCH'}`,
    );
  }
  lines.push('');
  lines.push(`SQLite: project database ${run.databases.app.journal_mode}, synchronous=${run.options.sqliteSynchronous} (SQLITE_SYNCHRONOUS, set by the server on its connections); floor ${run.databases.floor ? `${run.databases.floor.journal_mode}, synchronous=${run.databases.floor.synchronous} (set by floor-server.mjs)` : 'not run'}`);
  lines.push(`RSS: VmRSS of the server process plus its descendants, sampled every 100 ms during each measured run`);
  for (const result of run.catalogue ?? []) {
    lines.push(
      `catalogue, ${result.engine}, ${result.plants} plants: batch ${Math.round(result.batch.oneClient)} plants/s (1 client), ` +
        `${Math.round(result.batch.twoClients)} (2), ${Math.round(result.batch.inProcess)} in process (no HTTP, no JSON); search p50 ${result.search.p50.toFixed(1)} ms, p99 ${result.search.p99.toFixed(1)} ms at 8 connections; ` +
        `export ${result.exported.seconds.toFixed(2)} s, server RSS ${result.exported.rssBeforeMb.toFixed(0)} → ${result.exported.rssPeakMb.toFixed(0)} MB`,
    );
  }
  if (run.instances) {
    const { one, two, connections } = run.instances;
    lines.push(
      `instances, postgresql, POST /plants at ${connections} connections, the rate limit on: one instance ${Math.round(one.reqPerSec)} req/s ` +
        `(p50 ${one.p50} ms, p99 ${one.p99} ms), two ${Math.round(two.reqPerSec)} req/s (p50 ${two.p50} ms, p99 ${two.p99} ms)`,
    );
  }
  lines.push(...targetLines(run));
  if (run.json) {
    const json = run.json;
    lines.push(
      `reading JSON: a ${json.bodyMb.toFixed(2)} MB batch parsed exactly in ${json.exactParse.ms.toFixed(1)} ms (${json.exactParse.mbPerSecond.toFixed(0)} MB/s); ` +
        `the bound pass ${json.boundPass.ms.toFixed(2)} ms (${json.boundPass.mbPerSecond.toFixed(0)} MB/s); a million ignored zeros refused in ${json.zerosRefusal.ms.toFixed(2)} ms`,
    );
  }
  if (run.metrics) {
    const m = run.metrics;
    lines.push('');
    lines.push(`metrics, POST /plants in ${m.rounds.length} rounds of ${run.options.duration} s per server (on/off order alternating):`);
    lines.push(
      table([
        ['  round', 'on req/s', 'off req/s', 'on / off', 'on µs CPU', 'off µs CPU', 'on / off'],
        ...m.rounds.map((round, index) => [
          `  ${index + 1}`,
          formatNumber(round.on.reqPerSec),
          formatNumber(round.off.reqPerSec),
          round.ratio.toFixed(3),
          formatNumber(round.on.cpuMicrosecondsPerRequest),
          formatNumber(round.off.cpuMicrosecondsPerRequest),
          round.cpuRatio.toFixed(3),
        ]),
        ['  all', formatNumber(m.on.reqPerSec), formatNumber(m.off.reqPerSec), m.ratio.toFixed(3), formatNumber(m.on.cpuMicrosecondsPerRequest), formatNumber(m.off.cpuMicrosecondsPerRequest), m.cpuRatio.toFixed(3)],
      ]),
    );
    lines.push(
      `  recording costs ${(100 * (1 - m.ratio)).toFixed(1)} % of req/s (median of the rounds' ratios ${m.medianRatio.toFixed(3)}) ` +
        `and ${(100 * (m.cpuRatio - 1)).toFixed(1)} % more server CPU a request (median ${m.medianCpuRatio.toFixed(3)}); p99 on ${formatMs(m.on.p99)} ms, off ${formatMs(m.off.p99)} ms`,
    );
    if (m.record) {
      const share = m.record.medianNanoseconds / 1000 / m.off.cpuMicrosecondsPerRequest;
      lines.push(
        `  in-process (bench/metrics-record.ts): recording a request takes ${m.record.medianNanoseconds.toFixed(0)} ns of CPU, ` +
          `${(100 * share).toFixed(2)} % of the ${formatNumber(m.off.cpuMicrosecondsPerRequest)} µs a POST /plants takes with METRICS=off`,
      );
    }
  }
  for (const failure of run.failures) lines.push(`FAILED: ${failure}`);
  return lines.join('\n');
}

// The bulk-load, search and PostgreSQL create targets (docs/performance.md, Targets), each beside
// its figure from this run. Only the targets whose part ran are shown.
const CATALOGUE_TARGETS = [
  { engine: 'sqlite', what: 'SQLite batch, plants/s, one client', at: (result) => result.batch.oneClient, atLeast: 20_000 },
  { engine: 'postgresql', what: 'PostgreSQL batch, plants/s, one client', at: (result) => result.batch.oneClient, atLeast: 10_000 },
  { engine: 'sqlite', what: 'SQLite search p99 at 8 connections right after the load, ms', at: (result) => result.search.p99, atMost: 50 },
  { engine: 'postgresql', what: 'PostgreSQL search p99 at 8 connections right after the load, ms', at: (result) => result.search.p99, atMost: 50 },
];

function targetLines(run) {
  const rows = [];
  for (const target of CATALOGUE_TARGETS) {
    const result = (run.catalogue ?? []).find((candidate) => candidate.engine === target.engine);
    if (result) rows.push([target.what, target.at(result), target]);
  }
  if (run.instances) rows.push(['PostgreSQL POST /plants, one instance, rate limit on, req/s', run.instances.one.reqPerSec, { atLeast: 1_500 }]);
  if (rows.length === 0) return [];
  const formatted = rows.map(([what, value, { atLeast, atMost }]) => {
    const met = atLeast !== undefined ? value >= atLeast : value <= atMost;
    const bound = atLeast !== undefined ? `≥ ${atLeast.toLocaleString('en-US')}` : `≤ ${atMost}`;
    return [`  ${what}`, value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1), bound, met ? 'met' : 'not met'];
  });
  return ['', 'targets:', table([['  what', 'this run', 'target', ''], ...formatted])];
}

function ratios(targets) {
  const rate = (key) => targets.find((target) => target.key === key && !target.failure)?.reqPerSec;
  const pairs = [
    ['project POST / ceiling POST', 'post', 'ceiling'],
    ['project POST / floor POST', 'post', 'floor-post'],
    ['project GET / floor GET', 'get', 'floor-get'],
    ["project POST / Next's router ceiling", 'post', 'next-ceiling'],
    ["Next's router: project POST / ceiling", 'next-post', 'next-ceiling'],
    ["project POST / Next's router project POST", 'post', 'next-post'],
    ['project POST with 1 webhook endpoint / project POST', 'webhook', 'post'],
  ];
  const measured = pairs.filter(([, a, b]) => rate(a) && rate(b)).map(([name, a, b]) => ({ name, value: rate(a) / rate(b) }));
  // With the audit trail and one webhook endpoint, the aim is at least 2x the typical implementation.
  if (rate('webhook')) measured.push({ name: `project POST with 1 webhook endpoint / typical Next.js + Prisma (${TYPICAL_POST_REQ_PER_SEC} req/s)`, value: rate('webhook') / TYPICAL_POST_REQ_PER_SEC });
  return measured;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const options = readOptions(process.argv.slice(2));
  const startedAt = new Date();
  const loadAverageStart = os.loadavg();
  process.env.NEXT_TELEMETRY_DISABLED = '1';

  if (options.build) {
    say('building the production app (npm run build; skip with --no-build or BENCH_SKIP_BUILD=1)');
    await runCommand('npm run build', process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { env: { ...process.env, NODE_ENV: 'production' } });
  } else if (!existsSync(path.join(ROOT, '.next/BUILD_ID'))) {
    throw new UsageError('--no-build: there is no production build in .next; run without --no-build (or npm run build)');
  }
  checkInterrupted();
  if (options.serverMode === 'standalone' && !existsSync(START_BUNDLE)) {
    throw new UsageError(`${path.relative(ROOT, START_BUNDLE)} does not exist: run npm run build (or drop --no-build)`);
  }

  mkdirSync(TMP_DIR, { recursive: true });
  const appDb = path.join(TMP_DIR, 'plants.db');
  const floorDb = path.join(TMP_DIR, 'floor.db');
  const databaseEnv = { ...process.env, DATABASE_URL: `file:${appDb}` };
  say(`fresh database ${path.relative(ROOT, appDb)}: migrating`);
  await runCommand('db-migrate', TSX_BIN, [...TSX_CONDITIONS, 'scripts/db-migrate.ts'], { env: databaseEnv, capture: true });
  const created = await runCommand('token create', TSX_BIN, [...TSX_CONDITIONS, 'scripts/token.ts', 'create', '--name', 'bench', '--scopes', 'plants:read,plants:write,audit:read'], { env: databaseEnv, capture: true });
  const token = created.stdout.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('pst_')).pop();
  if (!token) throw new Error(`token create printed no pst_ token:\n${created.stdout}`);
  say(`API token created (${token.slice(0, 12)}...)`);
  checkInterrupted();

  const run = {
    startedAt: startedAt.toISOString(),
    machine: {
      cpu: os.cpus()[0]?.model?.trim() ?? 'unknown',
      cores: os.cpus().length,
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      node: process.version,
      loadAverageStart,
      loadAverageEnd: loadAverageStart,
    },
    serverMode: options.serverMode,
    options: { duration: options.duration, warmup: options.warmup, connections: options.connections, rounds: options.rounds, quick: options.quick, build: options.build, sqliteSynchronous: options.sqliteSynchronous },
    servers: {},
    databases: { app: databasePragmas(appDb), floor: null },
    targets: [],
    storedChecks: [],
    ratios: [],
    failures: [],
  };

  // The Next's-router server, the webhook one and the two of the metrics get copies of the fresh database, token included.
  const nextDb = path.join(TMP_DIR, 'plants-next.db');
  cpSync(appDb, nextDb);
  const webhookDb = path.join(TMP_DIR, 'plants-webhook.db');
  cpSync(appDb, webhookDb);
  const metricsDbs = { on: path.join(TMP_DIR, 'plants-metrics-on.db'), off: path.join(TMP_DIR, 'plants-metrics-off.db') };
  for (const file of Object.values(metricsDbs)) cpSync(appDb, file);
  let receiver = null;

  for (const serverKind of ['app', 'next', 'floor', 'webhook']) {
    const targets = options.targets.filter((target) => target.server === serverKind);
    if (targets.length === 0) continue;
    checkInterrupted();
    const databaseFile = { app: appDb, next: nextDb, floor: floorDb, webhook: webhookDb }[serverKind];
    let running;
    if (serverKind === 'app') {
      say(`starting ${options.serverMode === 'standalone' ? 'the standalone server' : 'next start'}`);
      running = await startAppServer(options, appDb);
    } else if (serverKind === 'next') {
      say('starting the standalone server with API_DIRECT_ROUTES=off (everything through Next\'s router)');
      running = await startAppServer(options, nextDb, { API_DIRECT_ROUTES: 'off' });
    } else if (serverKind === 'webhook') {
      receiver = await startWebhookReceiver();
      // On this machine's loopback: the SSRF guard is lifted for it, as for any private network.
      const local = { ...process.env, DATABASE_URL: `file:${webhookDb}`, WEBHOOK_ALLOW_PRIVATE_URLS: '1', AUTH_SECRET: BENCH_AUTH_SECRET };
      await runCommand('webhook create', TSX_BIN, [...TSX_CONDITIONS, 'scripts/webhook.ts', 'create', '--url', `${receiver.url}/hooks`], { env: local, capture: true });
      say(`starting the standalone server with one webhook endpoint (receiver at ${receiver.url})`);
      running = await startAppServer(options, webhookDb, { WEBHOOK_ALLOW_PRIVATE_URLS: '1' });
    } else {
      const floor = openFloorDatabase(floorDb);
      registerToken(floor, token);
      floor.close();
      run.databases.floor = { journal_mode: 'wal', synchronous: 'FULL' };
      say('starting the floor server');
      running = await startFloorServer(floorDb, token);
    }
    run.servers[serverKind] = running.process;
    try {
      if (targets.some((target) => target.method === 'GET' || target.method === 'PATCH')) {
        // A list page is only a list page if there are plants: seed enough for a full page (and
        // the plants the one-plant targets read and rename).
        for (let index = 1; index <= SEED_PLANTS; index++) {
          const response = await fetch(`${running.url}/plants`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: `{"id":${index},"name":"Seed plant ${index}","tag":"seed"}`,
          });
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`seeding ${running.server.label}: POST /plants answered ${response.status}`);
        }
      }
      for (const target of targets) {
        checkInterrupted();
        const record = await runTarget(target, running, token, options);
        run.targets.push(record);
        if (record.failed) run.failures.push(`${target.label}: ${record.failure ?? `${record.errors} errors, ${record.non2xx} non-2xx answers`}`);
        if (target.key === 'webhook' && !record.failure) {
          say(`${target.label}: waiting for every event to be delivered`);
          record.deliveries = await drainDeliveries(databaseFile, receiver.url);
          say(`${target.label}: ${record.deliveries.delivered} delivered, ${record.deliveries.drainSeconds.toFixed(1)} s after the load stopped`);
          if (!record.deliveries.drained || record.deliveries.failed > 0) {
            run.failures.push(`${target.label}: deliveries ${record.deliveries.drained ? '' : 'did not drain within 120 s; '}${record.deliveries.failed} failed`);
          }
        }
        if (target.stores && !record.failure) {
          const check = { label: target.label, ...(await checkStored(record, databaseFile)) };
          run.storedChecks.push(check);
          say(`${target.label}: stored ${check.stored} plants (2xx answers ${check.answered2xx}, unanswered ${check.unanswered})`);
          if (!check.ok) {
            run.failures.push(
              `${target.label}: stored ${check.stored} plants (ids ${check.minId}..${check.maxId}), expected ${check.answered2xx} (2xx answers) ` +
                `to ${check.answered2xx + check.unanswered} (plus requests in flight at the end)`,
            );
          }
        }
      }
    } finally {
      await stopProcess(running.server);
      if (receiver) await stopProcess(receiver.server);
    }
  }

  if (options.targets.some((target) => target.key === 'metrics')) {
    checkInterrupted();
    try {
      run.metrics = await compareMetrics(options, token, metricsDbs);
      run.servers.metrics = run.metrics.servers;
      if (run.metrics.failures) run.failures.push(`metrics: ${run.metrics.failures} failed requests`);
      const figures = path.join(TMP_DIR, 'metrics-record.json');
      say('metrics: bench/metrics-record.ts, recording a request in-process');
      await runCommand('bench/metrics-record.ts', TSX_BIN, [...TSX_CONDITIONS, 'bench/metrics-record.ts', '--json', figures]);
      run.metrics.record = JSON.parse(readFileSync(figures, 'utf8'));
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      run.failures.push(`metrics: ${error.message}`);
    }
  }

  if (options.targets.some((target) => target.key === 'json')) {
    checkInterrupted();
    const figures = path.join(TMP_DIR, 'json.json');
    say('json: bench/json-parse.ts, in-process');
    try {
      await runCommand('bench/json-parse.ts', TSX_BIN, [...TSX_CONDITIONS, 'bench/json-parse.ts', '--json', figures]);
      run.json = JSON.parse(readFileSync(figures, 'utf8'));
    } catch (error) {
      run.failures.push(`json: ${error.message}`);
    }
  }

  if (options.targets.some((target) => target.key === 'catalogue')) {
    checkInterrupted();
    const figures = path.join(TMP_DIR, 'catalogue.json');
    say('catalogue: bench/catalogue.ts on SQLite and PostgreSQL (its own servers and databases)');
    try {
      await runCommand('bench/catalogue.ts', TSX_BIN, [...TSX_CONDITIONS, 'bench/catalogue.ts', '--json', figures, '--duration', String(options.duration)]);
      run.catalogue = JSON.parse(readFileSync(figures, 'utf8'));
    } catch (error) {
      run.failures.push(`catalogue: ${error.message}`);
    }
  }

  if (options.targets.some((target) => target.key === 'instances')) {
    checkInterrupted();
    const figures = path.join(TMP_DIR, 'instances.json');
    say('instances: bench/instances.ts, POST /plants on PostgreSQL (its own servers and database)');
    try {
      await runCommand('bench/instances.ts', TSX_BIN, [...TSX_CONDITIONS, 'bench/instances.ts', '--json', figures], {
        env: { ...process.env, BENCH_DURATION: String(options.duration) },
      });
      run.instances = JSON.parse(readFileSync(figures, 'utf8'));
    } catch (error) {
      run.failures.push(`instances: ${error.message}`);
    }
  }

  run.machine.loadAverageEnd = os.loadavg();
  run.ratios = ratios(run.targets);
  if (run.metrics) run.ratios.push({ name: 'project POST, metrics on / METRICS=off (in turns)', value: run.metrics.ratio });
  mkdirSync(RESULTS_DIR, { recursive: true });
  const resultsFile = path.join(RESULTS_DIR, `${run.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(resultsFile, `${JSON.stringify(run, null, 2)}\n`);
  process.stdout.write(`${report(run)}\n`);
  process.stdout.write(`\nfull results: ${path.relative(ROOT, resultsFile)}\n`);
  return run.failures.length ? 1 : 0;
}

main()
  .then(
    (code) => cleanup().then(() => code),
    (error) =>
      cleanup().then(() => {
        if (interrupted || error instanceof Interrupted) return 130;
        process.stderr.write(`[bench] ${error instanceof UsageError ? `${error.message}\n\n${USAGE}` : (error?.stack ?? String(error))}\n`);
        return error instanceof UsageError ? 2 : 1;
      }),
  )
  .then((code) => {
    if (!interrupted) process.exit(code);
  });
