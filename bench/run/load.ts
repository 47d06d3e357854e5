// Load: each target's requests, a preflight that says why a broken target fails, then autocannon
// for a warm-up (discarded) and the measured run, with the server's RSS sampled meanwhile.
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { say } from './log';
import { sampleRss } from './memory';
import type { Options } from './options';
import { checkInterrupted, trackLoad } from './process-groups';
import type { Preflight, Summary, TargetRecord } from './results';
import type { RunningServer } from './servers';
import type { LoadTarget } from './targets';

// Ids start above 2^53, where a float would round them, and never repeat within a run (warm-up,
// measured run, preflight and every target but the typical implementation share this counter).
const exactIds = { first: 2n ** 53n + 1n, next: 2n ** 53n + 1n };
// A target that reads bodies with JSON.parse (the typical implementation) would get those ids
// rounded, and refuse them or store another plant: its ids start at 2^52 + 1, as many digits, and
// stay below 2^53, where a double holds every integer. They never repeat within a run either.
const doubleIds = { first: 2n ** 52n + 1n, next: 2n ** 52n + 1n };

const idsOf = (target: LoadTarget) => (target.doubleIds ? doubleIds : exactIds);
const plantBody = (target: LoadTarget) => `{"id":${idsOf(target).next++},"name":"Bench fern","tag":"bench"}`;

/** Whether `id` is one this run's POSTs to `target` (or to targets with its kind of ids) have sent so far. */
export const sentPlantId = (target: LoadTarget, id: bigint) => id >= idsOf(target).first && id < idsOf(target).next;

/** The body of the target's next request: a fresh plant for every POST, or the target's own. */
const bodyOf = (target: LoadTarget) => (target.body ? target.body() : target.method === 'POST' ? plantBody(target) : undefined);

function requestHeaders(target: LoadTarget, token: string): Record<string, string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (target.contentType || target.method === 'POST') headers['content-type'] = target.contentType ?? 'application/json';
  return headers;
}

export function runCannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    trackLoad(
      autocannon(options, (error, result) => {
        trackLoad(null);
        if (error) reject(error);
        else resolve(result);
      }),
    );
  });
}

export function cannonOptions(target: LoadTarget, url: string, token: string, seconds: number, connections: number): autocannon.Options {
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
export async function preflight(target: LoadTarget, url: string, token: string): Promise<Preflight> {
  const response = await fetch(`${url}${target.path}`, {
    method: target.method,
    headers: requestHeaders(target, token),
    body: bodyOf(target),
  });
  const text = await response.text();
  let problem: string | null = null;
  if (!response.ok) {
    problem = `answered ${response.status}: ${text.slice(0, 300)}`;
    if (target.path === '/api/bench/empty' && response.status === 404) problem += ' (stale build? run without --no-build)';
  } else if (target.method === 'GET' && !(target.answers ?? /^\[\{"id":\d+/).test(text)) {
    problem = `answered 200 without what it should (${target.answers ?? 'a list of plants'}): ${text.slice(0, 300)}`;
  }
  return problem === null ? { status: response.status, ok: true, problem } : { status: response.status, ok: false, problem };
}

export function summarise(result: autocannon.Result): Summary {
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

export async function runTarget(target: LoadTarget, running: RunningServer, token: string, options: Options): Promise<TargetRecord> {
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
