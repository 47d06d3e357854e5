// The targets driven against servers this run starts, one kind of server at a time: the project's
// server, the typical Next.js + Prisma app, the same build through Next's router, the floor, and the
// project's server with one webhook endpoint. Each server is seeded where a target reads plants, its
// targets run in turn, and what they stored (and delivered) is checked in its database before it stops.
import { checkStored, defaultPragmas, drainDeliveries } from './database-checks';
import { runTarget } from './load';
import { say } from './log';
import type { Options } from './options';
import { TSX_BIN, TSX_CONDITIONS } from './paths';
import { checkInterrupted, runCommand, stopProcess } from './process-groups';
import { measured, type BenchRun } from './results';
import { BENCH_AUTH_SECRET, prepareFloorDatabase, startAppServer, startFloorServer, startTypicalServer, startWebhookReceiver, type RunningServer } from './servers';
import { isLoadTarget } from './targets';

const SEED_PLANTS = 100;

// The typical app next to the project's server: the ratio of their POST /plants moves less with
// the machine's drift when the two are measured close together.
const SERVER_KINDS = ['app', 'typical', 'next', 'floor', 'webhook'] as const;

/** Each kind of server's own copy of the fresh database (the floor's has its own tables). */
export type ServerDatabases = Record<(typeof SERVER_KINDS)[number], string>;

/**
 * Runs every target of `options` that has a server of its own here, recording each in `run`.
 * `typicalBuild` is the typical app's build folder (bench/run/typical-build.ts), when its target runs.
 */
export async function runServerTargets(run: BenchRun, options: Options, token: string, databases: ServerDatabases, typicalBuild?: string) {
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>> | null = null;
  for (const serverKind of SERVER_KINDS) {
    const targets = options.targets.filter(isLoadTarget).filter((target) => target.server === serverKind);
    if (targets.length === 0) continue;
    checkInterrupted();
    const databaseFile = databases[serverKind];
    let running: RunningServer;
    if (serverKind === 'app') {
      say(`starting ${options.serverMode === 'standalone' ? 'the standalone server' : 'next start'}`);
      running = await startAppServer(options, databaseFile);
    } else if (serverKind === 'next') {
      say('starting the standalone server with API_DIRECT_ROUTES=off (everything through Next\'s router)');
      running = await startAppServer(options, databaseFile, { API_DIRECT_ROUTES: 'off' });
    } else if (serverKind === 'typical') {
      if (!typicalBuild) throw new Error('the typical target runs without a build of bench/typical');
      run.databases.typical = defaultPragmas(databaseFile);
      say('starting the typical Next.js + Prisma app (bench/typical, next start)');
      running = await startTypicalServer(typicalBuild, databaseFile);
    } else if (serverKind === 'webhook') {
      receiver = await startWebhookReceiver();
      // On this machine's loopback: the SSRF guard is lifted for it, as for any private network.
      const local = { ...process.env, DATABASE_URL: `file:${databaseFile}`, WEBHOOK_ALLOW_PRIVATE_URLS: '1', AUTH_SECRET: BENCH_AUTH_SECRET };
      await runCommand('webhook create', TSX_BIN, [...TSX_CONDITIONS, 'scripts/webhook.ts', 'create', '--url', `${receiver.url}/hooks`], { env: local, capture: true });
      say(`starting the standalone server with one webhook endpoint (receiver at ${receiver.url})`);
      running = await startAppServer(options, databaseFile, { WEBHOOK_ALLOW_PRIVATE_URLS: '1' });
    } else {
      prepareFloorDatabase(databaseFile, token);
      run.databases.floor = { journal_mode: 'wal', synchronous: 'FULL' };
      say('starting the floor server');
      running = await startFloorServer(databaseFile, token);
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
        if (record.failed) run.failures.push(`${target.label}: ${measured(record) ? `${record.errors} errors, ${record.non2xx} non-2xx answers` : record.failure}`);
        if (!measured(record)) continue;
        if (target.key === 'webhook' && receiver) {
          say(`${target.label}: waiting for every event to be delivered`);
          const deliveries = (record.deliveries = await drainDeliveries(databaseFile, receiver.url));
          say(`${target.label}: ${deliveries.delivered} delivered, ${deliveries.drainSeconds.toFixed(1)} s after the load stopped`);
          if (!deliveries.drained || deliveries.failed > 0) {
            run.failures.push(`${target.label}: deliveries ${deliveries.drained ? '' : 'did not drain within 120 s; '}${deliveries.failed} failed`);
          }
        }
        if (target.stores) {
          const check = { label: target.label, ...(await checkStored(target, record, databaseFile)) };
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
}
