// npm run bench: load-test the production server against a ceiling, a floor and a typical
// implementation of its POST /plants.
//
//   project POST /plants          the real route: auth, exact JSON, zod, SQLite insert, access log
//   typical POST /plants          a typical first implementation of the same route with Next.js and
//                                 Prisma (bench/typical, under next start), on the same tables: what
//                                 the project's POST /plants, and with a webhook endpoint, is held against
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
//                                 parser's MB/s on the largest batch, the bound pass's, and the refusal
//                                 of a body of a million ignored zeros
//   webhook POST /plants          the real route again, on a server with one webhook endpoint: every
//                                 create is also delivered, signed, to a local receiver
//                                 (bench/receiver.mjs) while the load runs; compared with the
//                                 typical implementation of the same run
//
// The audit trail is always on: every project POST writes its audit record and its outbox event.
//
// Builds the app (unless --no-build or BENCH_SKIP_BUILD=1) and, for the typical target, bench/typical
// (unless its build of the same sources is cached under .tmp/), makes a fresh SQLite database and an
// API token under .tmp/bench-<pid>/, starts what `npm start` runs (.next/standalone/start.mjs) (or `next start`
// with BENCH_SERVER=next-start), drives each target with autocannon after a warm-up whose results are
// discarded, samples the server's RSS ten times a second, prints a table and writes the full results to
// bench/results/<timestamp>.json. Exits 1 when any target had an error or a non-2xx answer.
// Everything it started is stopped, and the temporary folder removed, on success, failure or Ctrl-C.
//
// This file is the run from start to end; each job has its module in bench/run/: options.ts and
// targets.ts (the command line, what can be measured), process-groups.ts (every process it starts,
// and stopping them), memory.ts (RSS from /proc), servers.ts (starting the servers), load.ts
// (autocannon), database-checks.ts (what the databases hold afterwards), server-targets.ts,
// metrics-comparison.ts and script-targets.ts (the three kinds of target), typical-build.ts (the
// typical app's build), results.ts and report.ts.
import { cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databasePragmas } from './run/database-checks';
import { say } from './run/log';
import { runMetricsTarget } from './run/metrics-comparison';
import { readOptions, UsageError, USAGE } from './run/options';
import { RESULTS_DIR, ROOT, START_BUNDLE, TMP_DIR, TSX_BIN, TSX_CONDITIONS } from './run/paths';
import { checkInterrupted, cleanup, Interrupted, runCommand, stopEverythingOnExit, wasInterrupted } from './run/process-groups';
import { ratios, report } from './run/report';
import type { BenchRun } from './run/results';
import { runScriptTargets } from './run/script-targets';
import { runServerTargets } from './run/server-targets';
import { typicalBuild } from './run/typical-build';

async function main(): Promise<number> {
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
  const typical = options.targets.some((target) => target.key === 'typical') ? await typicalBuild() : undefined;
  checkInterrupted();

  mkdirSync(TMP_DIR, { recursive: true });
  const appDb = path.join(TMP_DIR, 'plants.db');
  const databaseEnv = { ...process.env, DATABASE_URL: `file:${appDb}` };
  say(`fresh database ${path.relative(ROOT, appDb)}: migrating`);
  await runCommand('db-migrate', TSX_BIN, [...TSX_CONDITIONS, 'scripts/db-migrate.ts'], { env: databaseEnv, capture: true });
  const created = await runCommand('token create', TSX_BIN, [...TSX_CONDITIONS, 'scripts/token.ts', 'create', '--name', 'bench', '--scopes', 'plants:read,plants:write,audit:read'], { env: databaseEnv, capture: true });
  const token = created.stdout.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('pst_')).pop();
  if (!token) throw new Error(`token create printed no pst_ token:\n${created.stdout}`);
  say(`API token created (${token.slice(0, 12)}...)`);
  checkInterrupted();

  const run: BenchRun = {
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

  // The typical app, the Next's-router server, the webhook one and the two of the metrics get copies of the fresh database, token included.
  const copyOfFresh = (name: string) => {
    const file = path.join(TMP_DIR, name);
    cpSync(appDb, file);
    return file;
  };
  const serverDatabases = {
    app: appDb,
    typical: copyOfFresh('plants-typical.db'),
    next: copyOfFresh('plants-next.db'),
    floor: path.join(TMP_DIR, 'floor.db'),
    webhook: copyOfFresh('plants-webhook.db'),
  };
  const metricsDatabases = { on: copyOfFresh('plants-metrics-on.db'), off: copyOfFresh('plants-metrics-off.db') };

  if (typical) run.typicalBuild = { directory: path.relative(ROOT, typical.directory), cached: typical.cached };
  await runServerTargets(run, options, token, serverDatabases, typical?.directory);
  if (options.targets.some((target) => target.key === 'metrics')) await runMetricsTarget(run, options, token, metricsDatabases);
  await runScriptTargets(run, options);

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

stopEverythingOnExit();
main()
  .then(
    (code) => cleanup().then(() => code),
    (error) =>
      cleanup().then(() => {
        if (wasInterrupted() || error instanceof Interrupted) return 130;
        process.stderr.write(`[bench] ${error instanceof UsageError ? `${error.message}\n\n${USAGE}` : (error?.stack ?? String(error))}\n`);
        return error instanceof UsageError ? 2 : 1;
      }),
  )
  .then((code) => {
    if (!wasInterrupted()) process.exit(code);
  });
