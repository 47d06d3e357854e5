// npm test: build the production server once, then run every suite against it.
// Each step's failure stops the run with that step's exit code.
import { spawnSync } from 'node:child_process';

process.env.NEXT_TELEMETRY_DISABLED = '1';

const steps = [
  ['production build (standalone server)', [process.execPath, 'scripts/build.mjs']],
  ['unit tests, and API, CLI and database tests on SQLite and PostgreSQL (vitest)', ['node_modules/.bin/vitest', 'run']],
  ['browser journeys in Chromium (playwright)', ['node_modules/.bin/playwright', 'test']],
];

for (const [title, [command, ...args]] of steps) {
  process.stdout.write(`\n== ${title}\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`\n${title} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
  process.stdout.write(`== ${title}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
