// The `json` target of npm run bench: what reading a JSON body costs the event loop, in-process.
//
//   exact parse   parseJsonExact (JSON.parse after the pass that marks integers, which become
//                 bigints) on the largest body a batch may send: 1,000 plants with long names,
//                 close to 2 MiB; MB/s and ms a body
//   bound pass    jsonBoundBroken, the one pass over the text that checks depth and the count of
//                 values before any parse; MB/s on the same body
//   refusal       the same pass on a body of a million ignored zeros, which it refuses at the
//                 16,001st value: ms a body
//
// Options: --json FILE (write the figures there too), --rounds N (default 20).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { jsonBoundBroken, parseJsonExact } from '../lib/shared/json';
import { BATCH_JSON_VALUES_LIMIT } from '../lib/schemas/batch';

const { values } = parseArgs({ options: { json: { type: 'string' }, rounds: { type: 'string', default: '20' } } });
const ROUNDS = Number(values.rounds);
const say = (line: string) => process.stdout.write(`[bench:json] ${line}\n`);

const plants = JSON.stringify(
  Array.from({ length: 1000 }, (_, index) => ({ id: `${9007199254740993n + BigInt(index)}`, name: `Plant ${index} ${'x'.repeat(1900)}`, tag: 'aroid' })),
).replace(/"id":"(\d+)"/g, '"id":$1');
const zeros = `[{"id": 1, "name": "Zeros", "ignored": [${Array(999_990).fill('0').join(',')}]}]`;

/** The median of ROUNDS timings of `work`, in ms, after two rounds discarded. */
function medianMs(work: () => unknown): number {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS + 2; round++) {
    const started = performance.now();
    work();
    if (round >= 2) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

const megabytes = (text: string) => Buffer.byteLength(text) / 1e6;
const parseMs = medianMs(() => parseJsonExact(plants));
const boundMs = medianMs(() => jsonBoundBroken(plants, 32, BATCH_JSON_VALUES_LIMIT));
const refusalMs = medianMs(() => jsonBoundBroken(zeros, 32, BATCH_JSON_VALUES_LIMIT));
if (jsonBoundBroken(zeros, 32, BATCH_JSON_VALUES_LIMIT) !== 'values') throw new Error('the zeros body was not refused');

const figures = {
  bodyMb: megabytes(plants),
  exactParse: { ms: parseMs, mbPerSecond: megabytes(plants) / (parseMs / 1000) },
  boundPass: { ms: boundMs, mbPerSecond: megabytes(plants) / (boundMs / 1000) },
  zerosRefusal: { bodyMb: megabytes(zeros), ms: refusalMs },
};
say(
  `${figures.bodyMb.toFixed(2)} MB batch: exact parse ${parseMs.toFixed(1)} ms (${figures.exactParse.mbPerSecond.toFixed(0)} MB/s), ` +
    `bound pass ${boundMs.toFixed(2)} ms (${figures.boundPass.mbPerSecond.toFixed(0)} MB/s); ` +
    `a million zeros refused in ${refusalMs.toFixed(2)} ms`,
);
if (values.json) writeFileSync(values.json, `${JSON.stringify(figures, null, 2)}\n`);
