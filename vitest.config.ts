import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The API, CLI and integration suites run once per engine, each project against its own server
// and database; what only one engine has runs in its project alone (test/sqlite, test/postgresql),
// and so does what the production server does whatever the engine (test/server, on PostgreSQL,
// whose project is the shorter of the two: npm test runs them side by side and waits for both). The
// unit tests need neither and run once.
const onEachEngine = ['test/api/**/*.test.ts', 'test/cli/**/*.test.ts'];
// The database tests run in the test process, on databases of their own, with no server and no
// build: each engine's `:database` project, which npm test runs beside the build
// (scripts/test.mjs).
const inProcess = ['test/db/**/*.test.ts'];
const onlyOn = { sqlite: ['test/sqlite/**/*.test.ts'], postgresql: ['test/postgresql/**/*.test.ts', 'test/server/**/*.test.ts'] };
// The files that need the machine kept free of the other suites: each engine's `:alone` project,
// which `npm test` runs once the other suites have ended, the two engines side by side
// (scripts/test.mjs). They time the server under a burst of their own (a health check or a refusal
// within a second, or as many times more as the same request is slower idle), so that what they
// time is the server, not the other suites. A promise kept "within a second" by a server's clock
// (seenWithin, test/support/clock.ts) needs no machine of its own, and neither does the differential
// test, which reads two servers' rate-limit counts until they agree twice in a row (a count of an
// earlier, slow request may land between the two readings on a busy machine).
export const aloneFiles = [
  'test/api/abuse-bursts.test.ts',
  'test/api/hostile-requests.test.ts',
  'test/api/sign-in-limits.test.ts',
];

// The files that test what the server answers before any store is asked run on one engine: the
// direct path against Next's router (both paths call the same handlers on the same store, so what it
// compares is the adapters around them), security headers, redirects, who may call each page and
// server action with which arguments, hostile requests as raw bytes on both paths, the webhook URL
// guard and the published document's lint.
// The store reaches them only through sign-ins and the accounts they sign in with, which the other
// files hold to one behaviour on both engines (docs/testing.md#vitest). Each goes to the engine
// whose suite is the shorter without it, so the two suites, run side by side, end together.
const onOneEngine = {
  sqlite: [
    'test/api/differential.test.ts',
    'test/api/hostile-requests.test.ts',
    'test/api/server-actions.test.ts',
    'test/api/roles.test.ts',
    'test/api/webhook-guard.test.ts',
  ],
  postgresql: ['test/api/sign-in-redirects.test.ts', 'test/api/security-headers.test.ts', 'test/api/openapi-lint.test.ts'],
};

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname),
      // Tests call lib/ directly, as the server does; outside Next, `server-only` would refuse to load.
      'server-only': path.resolve(import.meta.dirname, 'node_modules/server-only/empty.js'),
    },
  },
  test: {
    // The API files share one server and database; running them one after another keeps
    // assertions about ordering and counts deterministic. The engines share nothing, so npm test
    // runs each engine's projects in a vitest of their own, side by side.
    fileParallelism: false,
    // One process runs a project's files one after another, each file importing what it needs
    // once: a process of its own per file cost about a second of CPU each, a quarter of the suite.
    // So a file leaves the process as it found it (test/support/env.ts repoints lib/db at the
    // project's database before each file).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...(['sqlite', 'postgresql'] as const).flatMap((engine) => {
        const otherEnginesOwn = onOneEngine[engine === 'sqlite' ? 'postgresql' : 'sqlite'];
        return [
          { name: engine, include: [...onEachEngine, ...onlyOn[engine]], exclude: [...aloneFiles, ...otherEnginesOwn] },
          { name: `${engine}:alone`, include: aloneFiles, exclude: otherEnginesOwn },
          { name: `${engine}:database`, include: inProcess },
        ].map((project) => ({
          extends: true as const,
          test: { ...project, globalSetup: ['test/support/global-setup.ts'], setupFiles: ['test/support/env.ts'] },
        }));
      }),
    ],
  },
});
