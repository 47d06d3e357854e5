// npm test: build the production server, then run every suite against it, in four stages (the
// tests that need no server run beside the build). The steps of a stage share nothing (each has its
// own databases, servers and ports), so they run side by side; their output is held and printed,
// whole, as each ends. The last two stages are the tests that time the server or the pages, which
// need the machine kept free of the other suites: the files that time the server under a burst of
// their own (a health check within a second of it; and the differential test, vitest.config.ts), one
// engine beside the other, since each engine's burst leaves its check far inside its bound (the
// slowest health answer seen with the two side by side was 316 ms of the 1,000 allowed); then
// Lighthouse's speed score, with nothing else running. A failed stage stops the run, with the exit
// code of its first failed step.
import { spawn } from 'node:child_process';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const vitest = (...projects) => ['node_modules/.bin/vitest', 'run', ...projects.flatMap((name) => ['--project', name])];
const playwright = (project) => ['node_modules/.bin/playwright', 'test', '--project', project];

const stages = [
  [
    ['production build (standalone server)', [process.execPath, 'scripts/build.mjs']],
    ['unit tests, then the database tests in-process on SQLite and PostgreSQL (vitest)', vitest('unit', 'sqlite:database', 'postgresql:database')],
  ],
  [
    ['API and CLI tests on SQLite, and what only SQLite has (vitest)', vitest('sqlite')],
    ["API and CLI tests on PostgreSQL, what only PostgreSQL has, and the production server's own (vitest)", vitest('postgresql')],
    ['browser journeys in Chromium (playwright)', playwright('journeys')],
  ],
  [
    ['the tests that time the server under bursts of their own, on SQLite (vitest)', vitest('sqlite:alone')],
    ['the tests that time the server under bursts of their own, on PostgreSQL (vitest)', vitest('postgresql:alone')],
  ],
  [['Lighthouse on every page (playwright)', playwright('lighthouse')]],
];

/** Runs one step, holding its output; answers its exit code. */
function run(title, [command, ...args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n== ${title}\n${Buffer.concat(output)}`);
      process.stdout.write(code === 0 ? `== ${title}: ok in ${seconds} s\n` : `== ${title}: failed (exit ${code ?? signal}) after ${seconds} s\n`);
      resolve(code ?? 1);
    });
  });
}

const started = Date.now();
for (const stage of stages) {
  process.stdout.write(`\n== started: ${stage.map(([title]) => title).join('; ')}\n`);
  const codes = await Promise.all(stage.map((step) => run(...step)));
  const failed = codes.find((code) => code !== 0);
  if (failed !== undefined) {
    process.stderr.write(`\nnpm test failed (exit ${failed})\n`);
    process.exit(failed);
  }
}
process.stdout.write(`\nnpm test: every suite passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
