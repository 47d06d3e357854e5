// What PostgreSQL keeps for the catalogue beyond the plants: the search index's settings and the
// counts behind GET /stats (docs/decisions.md: "Search right after a bulk load", "How GET /stats
// counts"; the figures in docs/performance.md).
import { expect } from 'vitest';
import { closeDb, engine } from '../../lib/db/engine';
import { exposition } from '../../lib/metrics/registry';
import { advanceClock } from '../../lib/shared/clock';
import { uniqueId } from '../support/api';
import { processOnOwnDatabase, test } from '../support/fixtures';

const database = processOnOwnDatabase();

test('the search index merges its pending list at 256 kB, not the default 4 MB', async ({ ownDatabase }) => {
  const [index] = (await ownDatabase.execute(
    `SELECT c."reloptions" AS "options", am."amname" AS "method" FROM pg_class c JOIN pg_am am ON am."oid" = c."relam" WHERE c."relname" = 'Plant_nameFolded_trgm_idx'`,
  )) as { options: string[] | null; method: string }[];
  expect(index).toEqual({ options: ['gin_pending_list_limit=256'], method: 'gin' });
});

test('changes to the plants are appended, one row per statement, day and tag, and folded into the counts without changing a figure or the count stamp', async () => {
  const stats = () => engine().plants.stats({ since: '2000-01-01', topTags: 10 });
  const changes = async () => Number(((await database.execute('SELECT count(*) AS "n" FROM "PlantCountChange"')) as { n: bigint }[])[0].n);
  const tag = `fold-${uniqueId()}`;
  const ids = Array.from({ length: 3 }, () => uniqueId());

  // A fold is due at most once a second per process: the clock moves on so the next read folds.
  advanceClock(1_001);
  await stats();
  expect(await changes()).toBe(0);
  // Three plants in one statement, of one day and tag: one row of change. A rename: a row that
  // changes no count, so the count stamp moves.
  await database.execute(`INSERT INTO "Plant" ("id", "name", "tag", "nameFolded") VALUES ${ids.map((id) => `(${id}, 'Folded', '${tag}', 'folded')`).join(', ')}`);
  await database.execute(`UPDATE "Plant" SET "name" = 'Renamed' WHERE "id" = ${ids[0]}`);
  expect(await changes()).toBe(2);
  expect(await engine().plants.unfoldedCountChanges()).toBe(2);
  const before = await stats();
  expect(before.tags).toContainEqual({ tag, count: 3 });
  const stamp = await engine().plants.countStamp();

  // Folding changes no figure, and no stamp: the plants are as they were.
  advanceClock(1_001);
  expect(await stats()).toEqual(before);
  expect(await changes()).toBe(0);
  expect(await engine().plants.countStamp()).toBe(stamp);

  // The tag's last plants gone: after the next fold its count is a zero, which no figure lists.
  await database.execute(`DELETE FROM "Plant" WHERE "tag" = '${tag}'`);
  advanceClock(1_001);
  const after = await stats();
  expect(after.total).toBe(before.total - 3);
  expect(after.tags.map((entry) => entry.tag)).not.toContain(tag);
  expect(await database.execute(`SELECT "count" FROM "PlantTagCount" WHERE "tag" = '${tag}'`)).toEqual([{ count: 0n }]);
});

test('plants loaded in bulk get the planner\'s statistics within seconds, without waiting for autovacuum', async () => {
  const rowEstimate = async () => ((await database.execute(`SELECT reltuples::float8 AS "rows" FROM pg_class WHERE oid = '"Plant"'::regclass`)) as { rows: number }[])[0].rows;
  const analyses = async () => Number(/^plant_store_plant_analyses_total (\d+)$/m.exec(await exposition())?.[1]);
  const before = await analyses();
  expect(await rowEstimate()).toBeLessThan(1_500);

  const unrecorded = () => ({ audit: [], events: [] });
  const plants = Array.from({ length: 1_500 }, (_, index) => ({ id: uniqueId(), name: `Loaded in bulk ${index}`, tag: index % 2 ? 'fern' : null }));
  await engine().plants.insertMany(plants, unrecorded);

  // Once the writes have paused for a fifth of a second, this process analyzes the table (counted in its metric).
  await expect.poll(analyses, { timeout: 10_000, interval: 100 }).toBe(before + 1);
  expect(await rowEstimate()).toBeGreaterThanOrEqual(1_500);
  // And has merged the search indexes' pending lists (before it counted the analysis): a merge now finds nothing to take.
  const [{ pages }] = (await database.execute(
    `SELECT gin_clean_pending_list('"Plant_nameFolded_trgm_idx"'::regclass) + gin_clean_pending_list('"Plant_nameFolded_pairs_idx"'::regclass) AS "pages"`,
  )) as { pages: bigint }[];
  expect(pages).toBe(0n);
});

test('an analysis waiting for the writes to pause is dropped when the connections close', async () => {
  const analyses = async () => Number(/^plant_store_plant_analyses_total (\d+)$/m.exec(await exposition())?.[1]);
  const unrecorded = () => ({ audit: [], events: [] });
  const plants = Array.from({ length: 1_000 }, (_, index) => ({ id: uniqueId(), name: `Loaded then closed ${index}`, tag: null }));
  await engine().plants.insertMany(plants, unrecorded);
  const before = await analyses();

  // The writes were enough for a look (the test above left about 1,500 plants, a fifth of which is
  // under 1,000); closing the connections forgets it. Past the quiet it would have waited
  // for, wall-clock time (the analysis is timed by the wall clock), nothing ran.
  await closeDb();
  const quietPassed = Date.now() + 1_500;
  await expect.poll(() => Date.now() >= quietPassed, { timeout: 5_000, interval: 100 }).toBe(true);
  expect(await analyses()).toBe(before);
});
