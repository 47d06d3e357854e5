// PostgreSQL's search index keeps its pending list short, so a store searched right after a bulk
// load is as fast as one that autovacuum has tidied (docs/decisions.md, "Search right after a bulk
// load"; the figures in docs/performance.md).
import { expect } from 'vitest';
import { test } from '../support/fixtures';

test('the search index merges its pending list at 256 kB, not the default 4 MB', async ({ ownDatabase }) => {
  const [index] = (await ownDatabase.execute(
    `SELECT c."reloptions" AS "options", am."amname" AS "method" FROM pg_class c JOIN pg_am am ON am."oid" = c."relam" WHERE c."relname" = 'Plant_nameFolded_trgm_idx'`,
  )) as { options: string[] | null; method: string }[];
  expect(index).toEqual({ options: ['gin_pending_list_limit=256'], method: 'gin' });
});
