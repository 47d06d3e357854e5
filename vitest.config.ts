import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The API, CLI and integration suites run once per engine, each project against its own server
// and database; the unit tests need neither and run once.
const onEachEngine = ['test/api/**/*.test.ts', 'test/cli/**/*.test.ts', 'test/db/**/*.test.ts'];

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
      ...['sqlite', 'postgresql'].map((name) => ({
        extends: true as const,
        test: {
          name,
          include: onEachEngine,
          globalSetup: ['test/support/global-setup.ts'],
          setupFiles: ['test/support/env.ts'],
        },
      })),
    ],
  },
});
