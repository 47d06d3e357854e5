// npm test: build the production server once, then run the suites against it side by side. They
// share nothing (each has its own databases, servers and ports), and most of their time is spent
// waiting on a server or a browser, so running them together keeps both cores busy. Each suite's
// output is printed whole when it ends, with its time; the run fails if any suite fails.
import { spawn, spawnSync } from 'node:child_process';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const BUILD = ['production build (standalone server)', [process.execPath, 'scripts/build.mjs']];
const SUITES = [
  ['vitest: unit tests, and the API, CLI and database tests on SQLite', ['node_modules/.bin/vitest', 'run', '--project', 'unit', '--project', 'sqlite']],
  ['vitest: the API, CLI and database tests on PostgreSQL', ['node_modules/.bin/vitest', 'run', '--project', 'postgresql']],
  ['browser journeys in Chromium (playwright)', ['node_modules/.bin/playwright', 'test']],
];

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const started = Date.now();

process.stdout.write(`\n== ${BUILD[0]}\n`);
const build = spawnSync(BUILD[1][0], BUILD[1].slice(1), { stdio: 'inherit' });
if (build.status !== 0) {
  process.stderr.write(`\n${BUILD[0]} failed (exit ${build.status ?? build.signal})\n`);
  process.exit(build.status ?? 1);
}
process.stdout.write(`== ${BUILD[0]}: ok in ${seconds(started)}\n`);

function run([title, [command, ...args]]) {
  const suiteStarted = Date.now();
  process.stdout.write(`== ${title}: started\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      process.stdout.write(`\n== ${title}\n${Buffer.concat(output).toString()}`);
      process.stdout.write(`== ${title}: ${ok ? 'ok' : `failed (exit ${code ?? signal})`} in ${seconds(suiteStarted)}\n`);
      resolve({ title, ok });
    });
  });
}

const results = await Promise.all(SUITES.map(run));
const failed = results.filter((result) => !result.ok);
process.stdout.write(`\n== npm test: ${failed.length ? `${failed.length} of ${results.length} suites failed` : 'every suite passed'} in ${seconds(started)}\n`);
for (const { title } of failed) process.stderr.write(`failed: ${title}\n`);
process.exit(failed.length ? 1 : 0);
