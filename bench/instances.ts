// npm run bench:instances: POST /plants on PostgreSQL, one production server against two sharing
// the database (docs/operations.md, Scaling; the figures are in docs/performance.md). Needs a
// build (npm run build) and a PostgreSQL server (TEST_DATABASE_URL, default
// postgresql://postgres@127.0.0.1:5432/test); the database it makes is dropped afterwards.
// Everything runs on this machine, so two instances share its cores with PostgreSQL and the load
// generator: the figures show what coordinating through the database costs, not how far more
// machines would scale.
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { createTestDatabase, tokenIn } from '../test/support/database';
import { startServer, type RunningServer } from '../test/support/server';

// --json FILE: also write the figures there (npm run bench's `instances` target reads them).
const { values: options } = parseArgs({ options: { json: { type: 'string' } } });
const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 3;

type Result = { label: string; requests: number; reqPerSec: number; p50: number; p99: number; non2xx: number; errors: number };

let nextId = 2n ** 60n;

function load(server: RunningServer, token: string, connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${server.url}/plants`,
    connections,
    duration,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    requests: [{ setupRequest: (request) => ({ ...request, body: `{"id": ${++nextId}, "name": "Scaling", "tag": "bench"}` }) }],
  });
}

/** All connections spread evenly over the servers, for the same time. */
async function measure(label: string, servers: RunningServer[], token: string): Promise<Result> {
  await Promise.all(servers.map((server) => load(server, token, CONNECTIONS / servers.length, WARMUP_S)));
  const results = await Promise.all(servers.map((server) => load(server, token, CONNECTIONS / servers.length, DURATION_S)));
  const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
  return {
    label,
    requests,
    reqPerSec: requests / DURATION_S,
    // Each server's percentiles, the worse of them.
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
    errors: results.reduce((sum, result) => sum + result.errors, 0),
  };
}

async function main() {
  const database = await createTestDatabase('postgresql');
  const servers: RunningServer[] = [];
  try {
    const { token } = await tokenIn(database.url, 'bench-instances');
    // The rate limiter stays on, counting in the database, far above this load.
    const env = { RATE_LIMIT_PER_MINUTE: '1000000000' };
    servers.push(await startServer({ databaseUrl: database.url, env }));
    const one = await measure('1 instance', servers, token);
    servers.push(await startServer({ databaseUrl: database.url, env }));
    const two = await measure('2 instances', servers, token);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const stored = Number((await client.query(`SELECT count(*) AS n FROM "Plant" WHERE "tag" = 'bench'`)).rows[0].n);
    await client.end();

    const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown';
    console.log(`\nPOST /plants on PostgreSQL, ${CONNECTIONS} connections, ${DURATION_S} s after ${WARMUP_S} s warm-up`);
    console.log(`machine: ${cpu} x ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()}\n`);
    console.log('instances      req/s   p50 ms   p99 ms   non-2xx   errors');
    for (const result of [one, two]) {
      console.log(
        `${result.label.padEnd(11)} ${result.reqPerSec.toFixed(0).padStart(8)} ${String(result.p50).padStart(8)} ${String(result.p99).padStart(8)} ${String(result.non2xx).padStart(9)} ${String(result.errors).padStart(8)}`,
      );
    }
    console.log(`\nstored: ${stored} plants for ${one.requests + two.requests} answered requests in the measured runs (plus warm-ups and requests in flight)`);
    if (options.json) writeFileSync(options.json, JSON.stringify({ connections: CONNECTIONS, durationSeconds: DURATION_S, one, two, stored }));
    if (one.non2xx + one.errors + two.non2xx + two.errors > 0) process.exitCode = 1;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await database.remove();
  }
}

await main();
