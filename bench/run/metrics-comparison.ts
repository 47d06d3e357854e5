// The metrics target: what recording the metrics costs POST /plants, measured on two servers of
// the same build, one with METRICS=off, in turns; then in-process (bench/metrics-record.ts).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { cannonOptions, preflight, runCannon, summarise } from './load';
import { say } from './log';
import type { Options } from './options';
import { checkInterrupted, Interrupted, stopProcess } from './process-groups';
import type { BenchRun, MetricsComparison } from './results';
import { figuresOf } from './script-targets';
import { startAppServer, type RunningServer } from './servers';
import { isLoadTarget, TARGETS } from './targets';

// /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux (getconf CLK_TCK).
const CLOCK_TICKS_PER_SECOND = 100;

/** The CPU seconds (user and system) process `pid` has used so far. */
function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return (utime + stime) / CLOCK_TICKS_PER_SECOND;
}

type Side = 'on' | 'off';
type Figures = MetricsComparison['on'];

/**
 * What recording the metrics costs POST /plants on the direct path: two servers of the same build on
 * copies of one database, one with METRICS=off, each warmed up, then measured `rounds` times each in
 * turns, the order swapped every round (on, off, off, on, ...), so a machine that speeds up or slows
 * down during the run weighs on both alike. Only one server is under load at a time. Besides req/s,
 * the server's CPU time per answered request: a busy machine moves it far less than req/s, since it
 * counts only the server's own work, not the time it waited for a core.
 */
async function compareMetrics(options: Options, token: string, databases: Record<Side, string>): Promise<MetricsComparison> {
  const target = TARGETS.filter(isLoadTarget).find((candidate) => candidate.key === 'metrics')!;
  say('metrics: starting two standalone servers, METRICS on and METRICS=off');
  const servers: Partial<Record<Side, RunningServer>> = {};
  try {
    const on = (servers.on = await startAppServer(options, databases.on));
    const off = (servers.off = await startAppServer(options, databases.off, { METRICS: 'off' }));
    const started = { on, off };
    for (const name of ['on', 'off'] as const) {
      const check = await preflight(target, started[name].url, token);
      if (!check.ok) throw new Error(`metrics ${name}: ${check.problem}`);
      checkInterrupted();
      say(`metrics ${name}: warm-up ${options.warmup} s (discarded)`);
      await runCannon(cannonOptions(target, started[name].url, token, options.warmup, options.connections));
      await sleep(500);
    }
    const rounds: MetricsComparison['rounds'] = [];
    let failures = 0;
    for (let round = 0; round < options.rounds; round++) {
      const figures: Partial<Record<Side, Figures>> = {};
      for (const name of round % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        checkInterrupted();
        const cpuBefore = cpuSecondsOf(started[name].server.pid);
        const result = summarise(await runCannon(cannonOptions(target, started[name].url, token, options.duration, options.connections)));
        const cpuMicrosecondsPerRequest = ((cpuSecondsOf(started[name].server.pid) - cpuBefore) / result.completed) * 1e6;
        failures += result.errors + result.non2xx;
        figures[name] = { reqPerSec: result.reqPerSec, p50: result.p50, p99: result.p99, cpuMicrosecondsPerRequest };
        await sleep(500);
      }
      const both = figures as Record<Side, Figures>;
      rounds.push({ ...both, ratio: both.on.reqPerSec / both.off.reqPerSec, cpuRatio: both.on.cpuMicrosecondsPerRequest / both.off.cpuMicrosecondsPerRequest });
      say(
        `metrics round ${round + 1}: on ${both.on.reqPerSec.toFixed(0)} req/s, ${both.on.cpuMicrosecondsPerRequest.toFixed(0)} µs CPU a request; ` +
          `off ${both.off.reqPerSec.toFixed(0)} req/s, ${both.off.cpuMicrosecondsPerRequest.toFixed(0)} µs`,
      );
    }
    const mean = (name: Side, key: keyof Figures) => rounds.reduce((sum, round) => sum + round[name][key], 0) / rounds.length;
    const summary = (name: Side): Figures => ({ reqPerSec: mean(name, 'reqPerSec'), p50: mean(name, 'p50'), p99: mean(name, 'p99'), cpuMicrosecondsPerRequest: mean(name, 'cpuMicrosecondsPerRequest') });
    const median = (values: number[]) => {
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
      servers: { on: on.process, off: off.process },
    };
  } finally {
    for (const running of Object.values(servers)) await stopProcess(running.server);
  }
}

/** The metrics target: the comparison, then what recording one request costs in-process; recorded in `run`. */
export async function runMetricsTarget(run: BenchRun, options: Options, token: string, databases: Record<Side, string>) {
  checkInterrupted();
  try {
    const comparison = (run.metrics = await compareMetrics(options, token, databases));
    run.servers.metrics = comparison.servers;
    if (comparison.failures) run.failures.push(`metrics: ${comparison.failures} failed requests`);
    say('metrics: bench/metrics-record.ts, recording a request in-process');
    comparison.record = await figuresOf<MetricsComparison['record']>('bench/metrics-record.ts', 'metrics-record');
  } catch (error) {
    if (error instanceof Interrupted) throw error;
    run.failures.push(`metrics: ${(error as Error).message}`);
  }
}
