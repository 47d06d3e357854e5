import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';
import { E2E_PORT } from './e2e/support/staff';

export default defineConfig({
  testDir: 'e2e',
  // The specs share one server and database; one worker keeps their effects in order.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // Lighthouse scores the pages' speed: npm test runs it once the journeys are done (its server takes
  // their port), beside what is left of the vitest suites but not the timed files (scripts/test.mjs),
  // two pages at a time (`--workers 2`: its tests share nothing but the server); the journeys run
  // beside the vitest suites.
  projects: [
    // The pictures in docs/screenshots are refreshed on request (npm run screenshots), not on every test run.
    { name: 'journeys', testIgnore: ['**/lighthouse.spec.ts', ...(process.env.SCREENSHOTS ? [] : ['**/screenshots.spec.ts'])] },
    // /enrol is scored while the store requires a second factor of everyone, which would send the
    // seeded admin's session there too: its tests run first, one after the other, and alone.
    { name: 'lighthouse-enrol', testMatch: '**/lighthouse.spec.ts', grep: /\/enrol\b/ },
    { name: 'lighthouse', testMatch: '**/lighthouse.spec.ts', grepInvert: /\/enrol\b/, fullyParallel: true, dependencies: ['lighthouse-enrol'] },
  ],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // No trace recorded by default: recording every test's screencast and snapshots cost Chromium a
    // quarter more CPU (docs/testing.md, Playwright). `--trace retain-on-failure` records one.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    // A fresh database with an admin and a staff member, then the production server (the standalone
    // build `npm start` runs): e2e/support/serve.ts.
    command: 'node node_modules/tsx/dist/cli.mjs --conditions=react-server e2e/support/serve.ts',
    url: `http://localhost:${E2E_PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    // Stopped as an operator stops it, so that serve.ts removes its database, its backups folder and
    // its identity provider once the server has exited; by default Playwright kills the process
    // group outright, which left them behind after every run.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
