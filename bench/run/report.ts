// The report npm run bench prints at the end of a run: the machine, the table of targets, the
// ratios between them, what each check found, and each of docs/performance.md's targets (Targets)
// beside its figure from this run.
import { measured, type BenchRun, type CatalogueFigures, type Ratio, type TargetRecord } from './results';

function formatNumber(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Latencies: whole milliseconds as autocannon records them, a decimal if there is one. */
const formatMs = (value: number) => formatNumber(value, Number.isInteger(value) ? 0 : 1);

function table(rows: string[][]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('   ').trimEnd()).join('\n');
}

/** The report of `run`, as it is printed. */
export function report(run: BenchRun): string {
  const lines: string[] = [];
  lines.push('');
  lines.push(`Plant Store benchmark, ${run.startedAt}`);
  lines.push(`machine: ${run.machine.cpu} x ${run.machine.cores} cores, ${run.machine.memoryGb} GB, ${run.machine.platform}, node ${run.machine.node}`);
  lines.push(`load average at start: ${run.machine.loadAverageStart.map((value) => value.toFixed(2)).join(' ')}, at end: ${run.machine.loadAverageEnd.map((value) => value.toFixed(2)).join(' ')}`);
  const appServer = run.serverMode === 'standalone' ? 'standalone (.next/standalone/start.mjs: migrations, then the server in the same process; route handlers answered directly)' : 'next start';
  lines.push(`server: ${run.servers.app || run.servers.next || run.servers.webhook || run.servers.metrics ? `${appServer}, NODE_ENV=production` : 'not run'}; floor: ${run.servers.floor ? 'bench/floor-server.mjs' : 'not run'}`);
  if (run.servers.typical && run.typicalBuild) {
    lines.push(`typical: bench/typical under next start, NODE_ENV=production (its build in ${run.typicalBuild.directory}, ${run.typicalBuild.cached ? 'cached' : 'built in this run'})`);
  }
  if (run.servers.next) lines.push("Next's router: the same server with API_DIRECT_ROUTES=off");
  if (run.servers.webhook) lines.push('webhook: the same server with one webhook endpoint, delivering to bench/receiver.mjs on this machine');
  if (run.servers.metrics) lines.push('metrics: the same server twice, one with METRICS=off, measured in turns');
  lines.push(`load: autocannon, ${run.options.connections} connections, ${run.options.duration} s measured after ${run.options.warmup} s warm-up`);
  lines.push('');
  const rows = [['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'peak RSS MB']];
  for (const target of run.targets) {
    rows.push(
      measured(target)
        ? [
            target.label,
            formatNumber(target.reqPerSec),
            formatMs(target.p50),
            formatMs(target.p99),
            formatNumber(target.errors + target.non2xx, 0),
            formatNumber(target.peakRssMb),
          ]
        : [target.label, 'failed', '', '', '', ''],
    );
  }
  if (rows.length > 1) lines.push(table(rows));
  if (run.ratios.length) {
    lines.push('');
    lines.push('ratios (req/s):');
    lines.push(table(run.ratios.map((ratio) => [`  ${ratio.name}`, ratio.value.toFixed(2)])));
  }
  for (const target of run.targets) {
    if (!measured(target) || !target.deliveries) continue;
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
  if (run.databases.typical) {
    lines.push(`SQLite: typical database ${run.databases.typical.journal_mode}, synchronous=${run.databases.typical.synchronous} (better-sqlite3's default: the typical app sets none)`);
  }
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

// The bulk-load, search and PostgreSQL create targets, and the project's POST /plants with a webhook
// endpoint against the typical implementation (docs/performance.md, Targets), each beside its figure
// from this run. Only the targets whose part ran are shown.
type Bound = { atLeast: number; atMost?: undefined } | { atMost: number; atLeast?: undefined };

// With the audit trail and one webhook endpoint, POST /plants is to answer at least this many times
// the typical implementation's rate, both measured in the same run.
const WEBHOOK_OVER_TYPICAL_AT_LEAST = 2;

/** A measured target's req/s, or 0 when it did not run or failed. */
const rate = (targets: TargetRecord[], key: string) => targets.filter(measured).find((target) => target.key === key)?.reqPerSec ?? 0;

const CATALOGUE_TARGETS: ({ engine: string; what: string; at: (result: CatalogueFigures) => number } & Bound)[] = [
  { engine: 'sqlite', what: 'SQLite batch, plants/s, one client', at: (result) => result.batch.oneClient, atLeast: 20_000 },
  { engine: 'postgresql', what: 'PostgreSQL batch, plants/s, one client', at: (result) => result.batch.oneClient, atLeast: 10_000 },
  { engine: 'sqlite', what: 'SQLite search p99 at 8 connections right after the load, ms', at: (result) => result.search.p99, atMost: 50 },
  { engine: 'postgresql', what: 'PostgreSQL search p99 at 8 connections right after the load, ms', at: (result) => result.search.p99, atMost: 50 },
];

function targetLines(run: BenchRun): string[] {
  // Each: what, its figure in this run, the bound, and the figure's decimals below 100 (one by default).
  const rows: [string, number, Bound, number?][] = [];
  for (const target of CATALOGUE_TARGETS) {
    const result = (run.catalogue ?? []).find((candidate) => candidate.engine === target.engine);
    if (result) rows.push([target.what, target.at(result), target]);
  }
  if (run.instances) rows.push(['PostgreSQL POST /plants, one instance, rate limit on, req/s', run.instances.one.reqPerSec, { atLeast: 1_500 }]);
  const webhook = rate(run.targets, 'webhook');
  const typical = rate(run.targets, 'typical');
  if (webhook && typical) rows.push(['POST /plants with 1 webhook endpoint / typical Next.js + Prisma POST /plants, ×', webhook / typical, { atLeast: WEBHOOK_OVER_TYPICAL_AT_LEAST }, 2]);
  if (rows.length === 0) return [];
  const formatted = rows.map(([what, value, bound, digits = 1]) => {
    const met = bound.atLeast !== undefined ? value >= bound.atLeast : value <= bound.atMost;
    const shown = bound.atLeast !== undefined ? `≥ ${bound.atLeast.toLocaleString('en-US')}` : `≤ ${bound.atMost}`;
    return [`  ${what}`, value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits), shown, met ? 'met' : 'not met'];
  });
  return ['', 'targets:', table([['  what', 'this run', 'target', ''], ...formatted])];
}

/** The ratios between the targets' req/s, where both of a pair were measured. */
export function ratios(targets: TargetRecord[]): Ratio[] {
  const pairs = [
    ['project POST /plants / typical Next.js + Prisma POST /plants', 'post', 'typical'],
    ['project POST with 1 webhook endpoint / typical', 'webhook', 'typical'],
    ['project POST / ceiling POST', 'post', 'ceiling'],
    ['project POST / floor POST', 'post', 'floor-post'],
    ['project GET / floor GET', 'get', 'floor-get'],
    ["project POST / Next's router ceiling", 'post', 'next-ceiling'],
    ["Next's router: project POST / ceiling", 'next-post', 'next-ceiling'],
    ["project POST / Next's router project POST", 'post', 'next-post'],
    ['project POST with 1 webhook endpoint / project POST', 'webhook', 'post'],
  ];
  return pairs.filter(([, a, b]) => rate(targets, a) && rate(targets, b)).map(([name, a, b]) => ({ name, value: rate(targets, a) / rate(targets, b) }));
}
