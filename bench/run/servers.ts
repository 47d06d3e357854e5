// The servers npm run bench measures: the production server (or next start), the floor, the typical
// Next.js + Prisma app, and the webhook receiver, each on a free port of 127.0.0.1, started and then
// awaited until healthy.
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase as openFloorDatabase, registerToken } from '../floor-server.mjs';
import { HEAP_LIMIT_FLAG } from '../../server/heap-limit';
import { freePort } from '../../test/support/server';
import { say } from './log';
import { describeProcess, processTree, psChildren, treeRssKb } from './memory';
import type { Options } from './options';
import { FLOOR_SERVER, NEXT_BIN, ROOT, START_BUNDLE, WEBHOOK_RECEIVER } from './paths';
import { checkInterrupted, spawnServer, type ServerProcess } from './process-groups';

/** What the results record of a server's process, when it is ready and idle. */
export type ServerReport = { pid: number; command: string; descendants: number; idleRssMb: number };

export type RunningServer = { server: ServerProcess; url: string; process: ServerReport };

async function waitHealthy(server: ServerProcess, url: string) {
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

function reportServerProcess(server: ServerProcess): ServerReport {
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
function profilerArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF?.trim();
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`, '--cpu-prof-interval=250'] : [];
}

// One per run: the servers and the command that makes the webhook endpoint share it, since the
// endpoint's signing secret is stored encrypted under a key derived from it.
export const BENCH_AUTH_SECRET = `bench-${randomBytes(24).toString('hex')}`;

export async function startAppServer(options: Options, databaseFile: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
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
  let server: ServerProcess;
  if (options.serverMode === 'standalone') {
    const standaloneDir = path.dirname(START_BUNDLE);
    // next build leaves static assets out of the standalone folder; a deployment copies them in.
    for (const [from, to] of [
      [path.join(ROOT, '.next/static'), path.join(standaloneDir, '.next/static')],
      [path.join(ROOT, 'public'), path.join(standaloneDir, 'public')],
    ]) {
      if (existsSync(from) && !existsSync(to)) cpSync(from, to, { recursive: true });
    }
    // The heap cap npm start and the image pass (server/heap-limit.ts); BENCH_HEAP_LIMIT=off leaves V8's own sizing.
    const heapFlags = process.env.BENCH_HEAP_LIMIT === 'off' ? [] : [HEAP_LIMIT_FLAG];
    server = spawnServer('standalone server', [...heapFlags, ...profilerArgs(), START_BUNDLE], env);
  } else {
    server = spawnServer('next start', [...profilerArgs(), NEXT_BIN, 'start', '--port', String(port), '--hostname', '127.0.0.1'], env);
  }
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(server, url);
  return { server, url, process: reportServerProcess(server) };
}

/** The floor's tables in a fresh file, with the run's token registered. */
export function prepareFloorDatabase(databaseFile: string, token: string) {
  const floor = openFloorDatabase(databaseFile);
  registerToken(floor, token);
  floor.close();
}

export async function startFloorServer(databaseFile: string, token: string): Promise<RunningServer> {
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

/**
 * The typical Next.js + Prisma implementation (bench/typical), from its build folder
 * (bench/run/typical-build.ts), under `next start` as create-next-app's scripts run it: Next's own
 * server, with none of the project's server's settings (no heap cap, no pragmas of its own).
 */
export async function startTypicalServer(buildDirectory: string, databaseFile: string): Promise<RunningServer> {
  const port = await freePort();
  const server = spawnServer('typical server', [NEXT_BIN, 'start', buildDirectory, '--port', String(port), '--hostname', '127.0.0.1'], {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_OPTIONS: '',
    DATABASE_URL: `file:${databaseFile}`,
  });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(server, url);
  return { server, url, process: reportServerProcess(server) };
}

export async function startWebhookReceiver(): Promise<{ server: ServerProcess; url: string }> {
  const port = await freePort();
  const receiver = spawnServer('webhook receiver', [WEBHOOK_RECEIVER], { ...process.env, PORT: String(port), HOSTNAME: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  await waitHealthy(receiver, url);
  return { server: receiver, url };
}
