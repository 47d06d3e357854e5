// npm run bench:catalogue (and the `catalogue` target of npm run bench): the catalogue's figures on
// a store of 100,000 plants (--plants 1000000 for a million), on SQLite and on PostgreSQL, each through the production server:
//
//   batch    POST /plants/batch, 1000 plants a request: plants stored per second, with one client
//            (as the import page sends) and with two at once; and the same batches stored in this
//            process by the batch's own code (lib/plants/batch.ts) on a database of their own, with
//            no HTTP and no JSON: what the engine and the batch's rules allow on their own
//   after    GET /plants?q=plant 17 at 8 connections from the moment the load's last batch is
//            answered, for 10 s: p50 and p99 of the searches that started in the first second and
//            of those that started later (what a search pays while the table is new to the database)
//   search   GET /plants with q and tag, a mix of searches (bench/catalogue-data.ts), each as
//            frequent as the others, at 8 connections (--connections): p50 and p99, of the mix and of each search
//   export   GET /plants/export of all 100,000: time, and the server's RSS before and at its peak
//   count    GET /plants?count=true (X-Total-Count) over the filters of the search mix, at 8 connections: p50 and p99
//            (the server keeps counts while the plants stay as they were, so these are mostly kept
//            ones); and each filter's first count after a change, when it is counted afresh, at
//            one connection: p50 and p99
//   stats    GET /stats (the dashboard's figures, 30 and 90 days), at 8 connections: p50 and p99
//
// Needs a build (npm run build) and, for PostgreSQL, TEST_DATABASE_URL's server (default
// postgresql://postgres@127.0.0.1:5432/test). Databases are made for the run and dropped after it.
// Options: --engine sqlite|postgresql (default both), --duration S (search load, default 10),
// --plants N (default 100000), --connections N (search load, default 8: the issue's figure),
// --cpu-prof DIR (each server runs under node --cpu-prof, and writes its profile there as it stops),
// --json FILE (write the figures there too).
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { DatabaseEngine } from '../lib/db/stores';
import { createTestDatabase, tokenIn, usingDatabase } from '../test/support/database';
import { startServer, type RunningServer } from '../test/support/server';
import { SEARCHES, catalogueName, catalogueTag } from './catalogue-data';

const { values } = parseArgs({
  options: {
    engine: { type: 'string', multiple: true },
    duration: { type: 'string', default: '10' },
    plants: { type: 'string', default: '100000' },
    json: { type: 'string' },
    connections: { type: 'string', default: '8' },
    'cpu-prof': { type: 'string' },
  },
});
const engines = (values.engine?.flatMap((engine) => engine.split(',')) ?? ['sqlite', 'postgresql']) as DatabaseEngine[];
const DURATION_S = Number(values.duration);
const PLANTS = Number(values.plants);
const BATCH = 1000;
const SEARCH_CONNECTIONS = Number(values.connections);
const say = (line: string) => process.stdout.write(`[bench:catalogue] ${line}\n`);

const rssMb = (pid: number) => Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Batch bodies of 1000 plants each, written before the clock starts; ids above 2^53. */
function batchBodies(from: number, to: number): string[] {
  const bodies: string[] = [];
  for (let start = from; start < to; start += BATCH) {
    const items: string[] = [];
    for (let index = start; index < Math.min(to, start + BATCH); index++) {
      const tag = catalogueTag(index);
      items.push(`{"id":${2n ** 53n + BigInt(index)},"name":${JSON.stringify(catalogueName(index))}${tag ? `,"tag":"${tag}"` : ''}}`);
    }
    bodies.push(`[${items.join(',')}]`);
  }
  return bodies;
}

/** Sends the bodies with `clients` requests in flight; resolves to plants stored per second. */
async function load(server: RunningServer, token: string, bodies: string[], clients: number): Promise<number> {
  let next = 0;
  let stored = 0;
  const started = performance.now();
  const client = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      const response = await fetch(`${server.url}/plants/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      const text = await response.text();
      if (!response.ok || /"status":(400|409)/.test(text)) throw new Error(`batch answered ${response.status}: ${text.slice(0, 300)}`);
      stored += (text.match(/"created":true/g) ?? []).length;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return stored / ((performance.now() - started) / 1000);
}

/**
 * Stores `bodies` through createPlants (lib/plants/batch.ts) in this process, on a fresh database of
 * `engine`, one batch after another; resolves to plants stored per second. The bodies are read
 * before the clock starts, so what is timed is the batch's rules, its chunks' transactions, their
 * audit records and events: a POST /plants/batch without HTTP, JSON or the server around it.
 */
async function storedInProcess(engine: DatabaseEngine, bodies: string[]): Promise<number> {
  const database = await createTestDatabase(engine);
  try {
    return await usingDatabase(database.url, async () => {
      const { createPlants } = await import('../lib/plants/batch');
      const { OPERATOR_COMMAND } = await import('../lib/audit/context');
      const { parseJsonExact } = await import('../lib/shared/json');
      const batches = bodies.map((body) => parseJsonExact(body) as unknown[]);
      let stored = 0;
      const started = performance.now();
      for (const items of batches) stored += (await createPlants(items, OPERATOR_COMMAND)).filter((result) => result.status === 200 && result.created).length;
      const perSecond = stored / ((performance.now() - started) / 1000);
      if (stored !== bodies.length * BATCH) throw new Error(`stored ${stored} of ${bodies.length * BATCH} plants in process`);
      return perSecond;
    });
  } finally {
    await database.remove();
  }
}

/**
 * `query` at SEARCH_CONNECTIONS connections for `seconds` from now, right after a load: figures of
 * the searches that started in the first second and of those that started after it.
 */
async function searchesAfterLoad(server: RunningServer, token: string, query: string, seconds: number) {
  const first: number[] = [];
  const later: number[] = [];
  let failed = 0;
  const start = performance.now();
  const connection = async () => {
    while (performance.now() < start + seconds * 1000) {
      const started = performance.now();
      const response = await fetch(`${server.url}/plants?${query}`, { headers: { authorization: `Bearer ${token}` } });
      await response.text();
      (started - start < 1000 ? first : later).push(performance.now() - started);
      if (!response.ok) failed++;
    }
  };
  await Promise.all(Array.from({ length: SEARCH_CONNECTIONS }, connection));
  return { query, failed, first: figuresOf('first second', first, 0), later: figuresOf(`seconds 1-${seconds}`, later, 0) };
}

type SearchFigures = { label: string; requests: number; p50: number; p99: number; max: number; found: number };

const percentile = (sorted: number[], share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;

function figuresOf(label: string, took: number[], found: number): SearchFigures {
  const sorted = [...took].sort((a, b) => a - b);
  return { label, requests: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1] ?? 0, found };
}

/**
 * The search mix at SEARCH_CONNECTIONS connections for `seconds`: each connection sends the next
 * search of the list as soon as its last one is answered, so every search is as frequent as the
 * others. Latency is taken per request, so it is known per search as well as for the mix.
 */
async function searchLoad(server: RunningServer, token: string, seconds: number) {
  const took = SEARCHES.map(() => [] as number[]);
  const found = SEARCHES.map(() => 0);
  let failed = 0;
  let turn = 0;
  const until = performance.now() + seconds * 1000;
  const connection = async () => {
    while (performance.now() < until) {
      const kind = turn++ % SEARCHES.length;
      const started = performance.now();
      const response = await fetch(`${server.url}/plants?${SEARCHES[kind].query}`, { headers: { authorization: `Bearer ${token}` } });
      const text = await response.text();
      took[kind].push(performance.now() - started);
      if (response.ok) found[kind] = (text.match(/"id":/g) ?? []).length;
      else failed++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: SEARCH_CONNECTIONS }, connection));
  const all = figuresOf('mix', took.flat(), 0);
  return {
    ...all,
    reqPerSec: all.requests / ((performance.now() - started) / 1000),
    failed,
    each: SEARCHES.map((search, kind) => figuresOf(search.label, took[kind], found[kind])),
  };
}

/**
 * `targets` in turn at SEARCH_CONNECTIONS connections for `seconds`: p50 and p99 of them all, and
 * the target with the highest p99 (where a miss of the mix's p99 comes from).
 */
async function readLoad(server: RunningServer, token: string, label: string, targets: string[], seconds: number): Promise<SearchFigures & { failed: number; slowest: SearchFigures }> {
  const took = targets.map(() => [] as number[]);
  let failed = 0;
  let turn = 0;
  const until = performance.now() + seconds * 1000;
  const connection = async () => {
    while (performance.now() < until) {
      const kind = turn++ % targets.length;
      const started = performance.now();
      const response = await fetch(`${server.url}${targets[kind]}`, { headers: { authorization: `Bearer ${token}` } });
      await response.text();
      took[kind].push(performance.now() - started);
      if (!response.ok) failed++;
    }
  };
  await Promise.all(Array.from({ length: SEARCH_CONNECTIONS }, connection));
  const [slowest] = targets.map((target, kind) => figuresOf(target, took[kind], 0)).sort((a, b) => b.p99 - a.p99);
  return { ...figuresOf(label, took.flat(), 0), failed, slowest };
}

// The count of each filter of the search mix, on a page of one (the count's own cost, mostly).
// The issue's search right after a load: a common one of two words, whose trigrams half the catalogue has.
const AFTER_LOAD_QUERY = 'q=plant%2017';
const COUNT_TARGETS = ['/plants?count=true&limit=1', ...SEARCHES.map((search) => `/plants?${search.query}&count=true&limit=1`)];
const STATS_TARGETS = ['/stats?days=30', '/stats?days=90'];

/**
 * Each count target's first count after a change (a plant created, so no count kept from before
 * holds), one request at a time, `rounds` times: what a caller waits for a count made afresh.
 */
async function countsAfterChanges(server: RunningServer, token: string, rounds: number): Promise<SearchFigures & { failed: number; slowest: SearchFigures }> {
  const took: number[] = [];
  const each = new Map(COUNT_TARGETS.map((target) => [target, [] as number[]]));
  let failed = 0;
  for (let round = 0; round < rounds; round++) {
    const created = await fetch(`${server.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"id":${2n ** 62n + BigInt(round)},"name":"Changed ${round}"}`,
    });
    await created.text();
    if (!created.ok) failed++;
    for (const target of COUNT_TARGETS) {
      const started = performance.now();
      const response = await fetch(`${server.url}${target}`, { headers: { authorization: `Bearer ${token}` } });
      await response.text();
      took.push(performance.now() - started);
      each.get(target)!.push(performance.now() - started);
      if (!response.ok) failed++;
    }
  }
  // The filter whose fresh count takes longest (by its median).
  const [slowest] = [...each].map(([target, times]) => figuresOf(target, times, 0)).sort((a, b) => b.p50 - a.p50);
  return { ...figuresOf('count after a change', took, 0), failed, slowest };
}

async function exportAll(server: RunningServer, token: string) {
  const pid = server.child.pid!;
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = performance.now();
  const response = await fetch(`${server.url}/plants/export`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
  let bytes = 0;
  let rows = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) rows++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { rows: rows - 1, megabytes: bytes / 2 ** 20, seconds, rssBeforeMb: before, rssPeakMb: Math.max(peak, rssMb(pid)) };
}

async function run(engine: DatabaseEngine) {
  say(`${engine}: a fresh database and the production server`);
  const database = await createTestDatabase(engine);
  let server: RunningServer | undefined;
  try {
    const { token } = await tokenIn(database.url, 'bench-catalogue');
    server = await startServer({
      databaseUrl: database.url,
      env: { RATE_LIMIT_PER_MINUTE: process.env.RATE_LIMIT_PER_MINUTE ?? '1000000000' },
      nodeFlags: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`, '--cpu-prof-interval=250'] : [],
    });
    const half = Math.floor(PLANTS / 2 / BATCH) * BATCH;
    say(`${engine}: storing ${PLANTS} plants through POST /plants/batch`);
    const batchOneClient = await load(server, token, batchBodies(0, half), 1);
    const batchTwoClients = await load(server, token, batchBodies(half, PLANTS), 2);
    say(`${engine}: batch ${Math.round(batchOneClient)} plants/s (1 client), ${Math.round(batchTwoClients)} plants/s (2 clients)`);
    // Searched at once, with no VACUUM or ANALYZE first: as a store that has just imported its
    // catalogue searches it.
    const afterLoad = await searchesAfterLoad(server, token, AFTER_LOAD_QUERY, 10);
    say(`${engine}: right after the load, ${AFTER_LOAD_QUERY}: first second p50 ${afterLoad.first.p50.toFixed(1)} / p99 ${afterLoad.first.p99.toFixed(1)} ms, then p50 ${afterLoad.later.p50.toFixed(1)} / p99 ${afterLoad.later.p99.toFixed(1)} ms`);

    say(`${engine}: search mix at ${SEARCH_CONNECTIONS} connections, ${DURATION_S} s after a 3 s warm-up`);
    await searchLoad(server, token, 3);
    const search = await searchLoad(server, token, DURATION_S);
    say(`${engine}: search p50 ${search.p50.toFixed(1)} ms, p99 ${search.p99.toFixed(1)} ms, ${Math.round(search.reqPerSec)} req/s, ${search.failed} failed`);

    say(`${engine}: counts and stats at ${SEARCH_CONNECTIONS} connections, ${DURATION_S} s each after a 2 s warm-up`);
    await readLoad(server, token, 'count', COUNT_TARGETS, 2);
    const count = await readLoad(server, token, 'count', COUNT_TARGETS, DURATION_S);
    // The same pages without their counts: what the count adds is the difference.
    const uncounted = await readLoad(server, token, 'uncounted', COUNT_TARGETS.map((target) => target.replace('count=true&', '')), DURATION_S);
    await readLoad(server, token, 'stats', STATS_TARGETS, 2);
    const stats = await readLoad(server, token, 'stats', STATS_TARGETS, DURATION_S);
    say(`${engine}: count p50 ${count.p50.toFixed(1)} ms, p99 ${count.p99.toFixed(1)} ms (the same pages uncounted ${uncounted.p50.toFixed(1)} / ${uncounted.p99.toFixed(1)} ms); stats p50 ${stats.p50.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms`);

    say(`${engine}: exporting every plant`);
    const exported = await exportAll(server, token);

    say(`${engine}: each count's first after a change, one at a time`);
    const countAfterChange = await countsAfterChanges(server, token, 10);
    say(`${engine}: count after a change p50 ${countAfterChange.p50.toFixed(1)} ms, p99 ${countAfterChange.p99.toFixed(1)} ms`);

    await server.stop();
    server = undefined;
    say(`${engine}: the first half's batches again, stored in this process (no HTTP, no JSON)`);
    const inProcess = await storedInProcess(engine, batchBodies(0, half));
    say(`${engine}: batch in process ${Math.round(inProcess)} plants/s`);
    return { engine, plants: PLANTS, batch: { oneClient: batchOneClient, twoClients: batchTwoClients, inProcess }, afterLoad, search, count, uncounted, countAfterChange, stats, exported };
  } finally {
    await server?.stop();
    await database.remove();
  }
}

const results = [];
for (const engine of engines) results.push(await run(engine));

const lines = [
  '',
  `Catalogue on ${PLANTS.toLocaleString('en-US')} plants, production server, ${new Date().toISOString()}`,
  `machine: ${os.cpus()[0]?.model?.trim()} x ${os.cpus().length} cores, node ${process.version}, load average ${os.loadavg().map((load) => load.toFixed(2)).join(' ')}`,
  '',
  `engine       batch plants/s (1 client / 2 / in process)   search p50 / p99 ms (${SEARCH_CONNECTIONS} conn.)   search req/s   export: s, MB, server RSS before → peak`,
];
for (const result of results) {
  lines.push(
    `${result.engine.padEnd(12)} ${`${Math.round(result.batch.oneClient)} / ${Math.round(result.batch.twoClients)} / ${Math.round(result.batch.inProcess)}`.padEnd(44)} ${`${result.search.p50.toFixed(1)} / ${result.search.p99.toFixed(1)}${result.search.failed ? ` (${result.search.failed} failed)` : ''}`.padEnd(31)} ${Math.round(result.search.reqPerSec).toString().padEnd(14)} ${result.exported.seconds.toFixed(2)} s, ${result.exported.megabytes.toFixed(1)} MB, ${result.exported.rssBeforeMb.toFixed(0)} → ${result.exported.rssPeakMb.toFixed(0)} MB`,
  );
}
for (const result of results) {
  const { afterLoad } = result;
  lines.push(`${result.engine}: right after the load, ${afterLoad.query} (${SEARCH_CONNECTIONS} conn.): first second p50 / p99 ${afterLoad.first.p50.toFixed(1)} / ${afterLoad.first.p99.toFixed(1)} ms (${afterLoad.first.requests}), then ${afterLoad.later.p50.toFixed(1)} / ${afterLoad.later.p99.toFixed(1)} ms (${afterLoad.later.requests})${afterLoad.failed ? `, ${afterLoad.failed} failed` : ''}`);
  lines.push(`${result.engine}: count (X-Total-Count) p50 / p99 ${result.count.p50.toFixed(1)} / ${result.count.p99.toFixed(1)} ms (the same pages uncounted ${result.uncounted.p50.toFixed(1)} / ${result.uncounted.p99.toFixed(1)} ms); GET /stats p50 / p99 ${result.stats.p50.toFixed(1)} / ${result.stats.p99.toFixed(1)} ms (${SEARCH_CONNECTIONS} conn.)`);
  for (const figures of [result.count, result.uncounted, result.stats]) {
    lines.push(`${result.engine}: ${figures.label}, highest p99: ${figures.slowest.label} p50 / p99 ${figures.slowest.p50.toFixed(1)} / ${figures.slowest.p99.toFixed(1)} ms`);
  }
  lines.push(`${result.engine}: count after a change, one at a time, p50 / p99 ${result.countAfterChange.p50.toFixed(1)} / ${result.countAfterChange.p99.toFixed(1)} ms (${result.countAfterChange.requests} counts; slowest ${result.countAfterChange.slowest.label}: p50 ${result.countAfterChange.slowest.p50.toFixed(1)} ms)`);
}
for (const result of results) {
  lines.push('', `${result.engine}: each search within the mix (ms, p50 / p99; requests; plants on the page)`);
  for (const figure of result.search.each) {
    lines.push(`  ${figure.label.padEnd(44)} ${figure.p50.toFixed(1).padStart(6)} / ${figure.p99.toFixed(1).padStart(6)}   ${String(figure.requests).padStart(5)}   ${figure.found}`);
  }
}
process.stdout.write(`${lines.join('\n')}\n`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
if (results.some((result) => result.afterLoad.failed || result.search.failed || result.count.failed || result.countAfterChange.failed || result.stats.failed || result.exported.rows !== PLANTS)) process.exitCode = 1;
