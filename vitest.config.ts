import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The API, CLI and integration suites run once per engine, each project against its own server
// and database; what only one engine has runs in its project alone (test/sqlite, test/postgresql),
// and so does what the production server does whatever the engine (test/server, on SQLite). The
// unit tests need neither and run once.
const onEachEngine = ['test/api/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/db/**/*.test.ts'];
const onlyOn = { sqlite: ['test/sqlite/**/*.test.ts', 'test/server/**/*.test.ts'], postgresql: ['test/postgresql/**/*.test.ts'] };

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
    // assertions about ordering and counts deterministic.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      ...(['sqlite', 'postgresql'] as const).map((name) => ({
        extends: true as const,
        test: {
          name,
          include: [...onEachEngine, ...onlyOn[name]],
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/env.ts'],
        },
      })),
    ],
  },
});
