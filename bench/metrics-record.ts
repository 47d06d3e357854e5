// Part of the `metrics` target of npm run bench: what recording one request costs, in-process, as
// server/request-metrics.ts does it for every answer (two clock reads, a 'finish' listener, the
// route template of the path from the build's routes-manifest.json, one observation of the
// histogram). CPU time, so a busy machine moves it less than a server's req/s.
//
// Options: --json FILE (write the figures there too), --requests N a round (default 200,000).
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createRequestMetrics } from '../server/request-metrics';

const { values } = parseArgs({ options: { json: { type: 'string' }, requests: { type: 'string', default: '200000' } } });
const REQUESTS = Number(values.requests);
const ROUNDS = 7;
const say = (line: string) => process.stdout.write(`[bench:metrics] ${line}\n`);

const observe = createRequestMetrics(path.resolve('.next'));
if (!observe) throw new Error('METRICS=off: nothing to measure');
const paths = ['/plants', '/plants/9007199254740993', '/catalogue', '/no-such-page'];

/** CPU nanoseconds a request, over REQUESTS requests whose answers finish at once. */
function round(): number {
  const started = process.cpuUsage();
  for (let index = 0; index < REQUESTS; index++) {
    const response = Object.assign(new EventEmitter(), { statusCode: 200 });
    const observed = observe!({ method: 'POST' }, response)!;
    observed.path = paths[index % paths.length];
    response.emit('finish');
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / REQUESTS;
}

round();
const rounds = Array.from({ length: ROUNDS }, round).sort((a, b) => a - b);
const figures = { requests: REQUESTS, rounds, medianNanoseconds: rounds[Math.floor(ROUNDS / 2)] };
say(`recording a request: ${figures.medianNanoseconds.toFixed(0)} ns of CPU (median of ${ROUNDS} rounds of ${REQUESTS})`);
if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
