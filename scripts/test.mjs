// npm test: build the production server, then run every suite against it. Steps that share nothing
// (each has its own databases, servers and ports) run side by side; their output is held and
// printed, whole, as each ends. The unit and database tests need no server and run beside the
// build; the API, CLI and browser suites start as soon as the build is done, and Lighthouse once the
// journeys are done, beside what is left of the API suites (its scores hold beside two busy cores:
// docs/performance.md#lighthouse), with its own two workers (one at a time, its runs left the two
// cores idle for nearly two thirds of the time; the scores two at a time are in docs/testing.md).
// Last come the files that time the server under a burst of their own (a health check within a
// second of it, vitest.config.ts), which need the machine kept free of the other suites, one engine
// beside the other, since each engine's burst leaves its checks far inside their bounds
// (docs/testing.md#running-the-tests has the slowest health answer seen with the two side by side).
// Once a step fails nothing more starts, and the run ends, when the steps running have ended, with
// its exit code.
import { spawn } from 'node:child_process';
import { checkPrerequisites } from './test-prerequisites.mjs';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const vitest = (...projects) => ['node_modules/.bin/vitest', 'run', ...projects.flatMap((name) => ['--project', name])];
const playwright = (project, ...options) => ['node_modules/.bin/playwright', 'test', '--project', project, ...options];

// Each step starts once the steps it names in `after` have passed. The suites need the build;
// Lighthouse the journeys (its own server would share their port), and the timed files every other
// step. Splitting each suite in two (two processes with a server, a database and ports each) took as
// long on two cores with one kept busy, and a tenth more CPU (docs/testing.md#times).
const middle = [
  { id: 'sqlite', after: ['build'], title: 'API and CLI tests on SQLite, and what only SQLite has (vitest)', command: vitest('sqlite') },
  { id: 'postgresql', after: ['build'], title: "API and CLI tests on PostgreSQL, what only PostgreSQL has, and the production server's own (vitest)", command: vitest('postgresql') },
  { id: 'journeys', after: ['build'], title: 'browser journeys in Chromium (playwright)', command: playwright('journeys') },
];
const others = ['unit', 'types', ...middle.map(({ id }) => id), 'lighthouse'];
const steps = [
  // The types are checked beside the build rather than inside it, where the build would wait for them (next.config.js).
  { id: 'build', title: 'production build (standalone server)', command: [process.execPath, 'scripts/build.mjs'], env: { TYPES_CHECKED_BESIDE_THE_BUILD: '1' } },
  { id: 'types', title: 'type check (tsc, as npm run typecheck)', command: [process.execPath, 'node_modules/typescript/bin/tsc', '--noEmit'] },
  { id: 'unit', title: 'unit tests, then the database tests in-process on SQLite and PostgreSQL (vitest)', command: vitest('unit', 'sqlite:database', 'postgresql:database') },
  ...middle,
  { id: 'sqlite:alone', after: others, title: 'the tests that time the server under bursts of their own, on SQLite (vitest)', command: vitest('sqlite:alone') },
  { id: 'postgresql:alone', after: others, title: 'the tests that time the server under bursts of their own, on PostgreSQL (vitest)', command: vitest('postgresql:alone') },
  { id: 'lighthouse', after: ['journeys'], title: 'Lighthouse on every page (playwright)', command: playwright('lighthouse', '--workers', '2') },
];

/** Runs one step, holding its output; answers its exit code. */
function run({ title, command: [command, ...args], env }) {
  const started = Date.now();
  process.stdout.write(`\n== started: ${title}\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
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
// What the machine must have, before minutes go into a build and suites that would fail for want of it.
const missing = await checkPrerequisites();
if (missing.length > 0) {
  process.stderr.write(`npm test cannot run on this machine yet:\n${missing.map((line) => `- ${line}\n`).join('')}`);
  process.exit(1);
}
const passed = new Set();
const running = new Map();
let failed;
for (;;) {
  // Once a step has failed, nothing more starts; the steps running end first.
  if (failed === undefined) {
    for (const step of steps) {
      if (running.has(step.id) || passed.has(step.id) || !(step.after ?? []).every((id) => passed.has(id))) continue;
      running.set(step.id, run(step).then((code) => ({ step, code })));
    }
  }
  if (running.size === 0) break;
  const { step, code } = await Promise.race(running.values());
  running.delete(step.id);
  if (code === 0) passed.add(step.id);
  else failed ??= code;
}
if (failed !== undefined) {
  process.stderr.write(`\nnpm test failed (exit ${failed})\n`);
  process.exit(failed);
}
process.stdout.write(`\nnpm test: every suite passed in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
