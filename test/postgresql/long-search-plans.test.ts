// How PostgreSQL runs the list of a long search (lib/db/postgresql/long-search.ts): the plants it
// finds are gathered first and sorted after, whichever way it is asked of the index, so the planner
// cannot walk the plants newest first instead, reading most of the table when the plants that have
// the text are bunched in an older part of it (docs/performance.md#the-catalogue-on-1000000-plants).
import { expect } from 'vitest';
import { direct } from '../../lib/db/postgresql/direct';
import { listStatement } from '../../lib/db/postgresql/plants';
import { NEWEST_FIRST } from '../../lib/db/stores';
import { foldForSearch } from '../../lib/shared/fold';
import { processOnOwnDatabase, test } from '../support/fixtures';

const database = processOnOwnDatabase();

/** The plan PostgreSQL chooses for `sql`, as text (EXPLAIN's JSON). */
async function planOf(sql: string, parameters: unknown[]): Promise<string> {
  const rows = await direct.$queryRawUnsafe<{ 'QUERY PLAN': unknown }[]>(`EXPLAIN (FORMAT JSON) ${sql}`, ...parameters);
  return JSON.stringify(rows[0]['QUERY PLAN']);
}

const BACKWARD = '"Scan Direction":"Backward"';

test('a long search whose plants are bunched in the oldest part is gathered through the index, never by a newest-first walk', async () => {
  // 30,000 plants, the oldest 1,500 of them with "plant 17", the rest with "plant" too; analyzed, so
  // the planner knows one name in twenty has the text and expects a page within the newest few hundred.
  await database.execute(`INSERT INTO "Plant" ("id", "name", "nameFolded")
    SELECT i, CASE WHEN i <= 1500 THEN 'Bunched plant 17 ' || i ELSE 'Spread plant 2 ' || i END,
           CASE WHEN i <= 1500 THEN 'bunched plant 17 ' || i ELSE 'spread plant 2 ' || i END
    FROM generate_series(1, 30000) AS i`);
  await database.execute('ANALYZE "Plant"');
  const folded = foldForSearch('plant 17');
  const query = { folded, order: NEWEST_FIRST, take: 20 };

  // What the planner does given the choice: the newest-first walk. Without it, this test would prove nothing.
  const free = listStatement(query);
  expect(await planOf(free.sql, free.parameters)).toContain(BACKWARD);

  for (const plan of [{ way: 'whole', newestFirst: false }, { way: 'piece', piece: ' 17', newestFirst: false }] as const) {
    const { sql, parameters } = listStatement(query, plan);
    const chosen = await planOf(sql, parameters);
    expect(chosen, plan.way).not.toContain(BACKWARD);
    expect(chosen, plan.way).toContain('"Index Name":"Plant_nameFolded_trgm_idx"');
    const rows = await direct.$queryRawUnsafe<{ name: string }[]>(sql, ...parameters);
    expect(rows.map((row) => row.name), plan.way).toEqual(Array.from({ length: 20 }, (_, index) => `Bunched plant 17 ${1500 - index}`));
  }
});
