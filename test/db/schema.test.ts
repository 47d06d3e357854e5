// The two engines' schemas and migrations must describe the same models.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diffSchemaAgainstMigrations } from '../../lib/db/migrate';
import { createTemporaryDatabase } from '../../lib/db/engine';
import { POSTGRESQL_SCHEMA, SQLITE_SCHEMA, postgresqlSchemaFrom } from '../../scripts/prisma-generate.mjs';
import { createTestDatabase, executeOn, testEngine } from '../support/database';

describe(`the ${testEngine()} schema`, () => {
  it('is the one generated from prisma/schema.prisma (run `npm run db:generate` after editing it)', () => {
    const committed = readFileSync(POSTGRESQL_SCHEMA, 'utf8');
    expect(committed).toBe(postgresqlSchemaFrom(readFileSync(SQLITE_SCHEMA, 'utf8')));
  });

  it('is what its migrations build (run `npm run db:diff -- NAME` after editing it)', async () => {
    const scratch = await createTemporaryDatabase(testEngine(), 'drift');
    try {
      expect(await diffSchemaAgainstMigrations({ scratchDatabaseUrl: scratch.url })).toBeNull();
    } finally {
      await scratch.drop();
    }
  });

  // Its migration says why (prisma/postgresql/migrations/*_rate_limit_unlogged).
  it.runIf(testEngine() === 'postgresql')('keeps the rate limit\'s counts in an unlogged table, and everything else logged', async () => {
    const database = await createTestDatabase();
    try {
      const tables = (await executeOn('postgresql', database.url, `
        SELECT relname AS "table", relpersistence AS "persistence" FROM pg_class
        WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND relpersistence <> 'p'`)) as { table: string }[];
      expect(tables).toEqual([{ table: 'RateLimitWindow', persistence: 'u' }]);
    } finally {
      await database.remove();
    }
  });
});
