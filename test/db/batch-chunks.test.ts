// A batch's chunks (lib/plants/batch.ts), in-process on the project's engine. On PostgreSQL they
// overlap (PlantStore.chunksAtOnce): a chunk inserts while the one before is still at work. What a
// batch stores must still be what storing its chunks one after another would: its plants in the
// items' order, each id decided by its first item, and nothing from a chunk that failed or from any
// chunk after it.
import { afterEach, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { engine } from '../../lib/db/engine';
import { OLDEST_FIRST } from '../../lib/db/stores';
import { createPlants } from '../../lib/plants/batch';
import { uniqueId } from '../support/api';
import { testEngine } from '../support/database';
import { processOnOwnDatabase } from '../support/fixtures';

const database = processOnOwnDatabase();

const CHUNKS = 4;
const chunkSize = () => engine().plants.chunkSize;
const batchOf = (label: string) => Array.from({ length: CHUNKS * chunkSize() }, (_, index) => ({ id: uniqueId(), name: `${label} ${index}` }));
/** The first item of chunk `chunk`, plus `offset`. */
const at = (chunk: number, offset = 0) => chunk * chunkSize() + offset;

// The database itself refuses the audit record of one plant: its chunk fails after inserting its
// plants, while the next chunk may already be inserting its own.
const REFUSE = {
  sqlite: (id: bigint) => `CREATE TRIGGER "RefuseOneRecord" BEFORE INSERT ON "AuditEvent" WHEN NEW."targetId" = '${id}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
  postgresql: (id: bigint) => `CREATE FUNCTION "refuse_one_record"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
    CREATE TRIGGER "RefuseOneRecord" BEFORE INSERT ON "AuditEvent" FOR EACH ROW WHEN (NEW."targetId" = '${id}') EXECUTE FUNCTION "refuse_one_record"()`,
};
// On PostgreSQL, the database takes its time over some plants, so that the chunk after theirs would
// insert meanwhile if it might.
const slowInsertOf = (names: string[]) => `CREATE FUNCTION "slow_insert"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.3); RETURN NEW; END $$;
  CREATE TRIGGER "SlowInsert" BEFORE INSERT ON "Plant" FOR EACH ROW WHEN (NEW."name" IN (${names.map((name) => `'${name}'`).join(', ')})) EXECUTE FUNCTION "slow_insert"()`;
const UNDO = {
  sqlite: 'DROP TRIGGER IF EXISTS "RefuseOneRecord"',
  postgresql: `DROP TRIGGER IF EXISTS "RefuseOneRecord" ON "AuditEvent"; DROP FUNCTION IF EXISTS "refuse_one_record"();
    DROP TRIGGER IF EXISTS "SlowInsert" ON "Plant"; DROP FUNCTION IF EXISTS "slow_insert"();
    ALTER SEQUENCE "Plant_seq_seq" NO MAXVALUE`,
};
afterEach(() => database.execute(UNDO[testEngine()]));

/** How many plants of each of the batch's four chunks are stored. */
async function storedPerChunk(items: ReturnType<typeof batchOf>): Promise<number[]> {
  const found = await Promise.all(items.map((item) => engine().plants.findById(item.id)));
  return [0, 1, 2, 3].map((chunk) => found.slice(at(chunk), at(chunk + 1)).filter(Boolean).length);
}

it('stores every chunk in the items order, and an id that comes again in the next chunk is decided by its first item', async () => {
  const items = batchOf('Ordered');
  // The same content again (a retry: 200, not created), and another content (a conflict: 409),
  // each in the chunk right after its first item's.
  items[at(1, 1)] = { ...items[at(0, 3)] };
  items[at(3, 2)] = { id: items[at(2, 7)].id, name: 'Not the first' };
  // Chunk 1 has an id of chunk 0's, so it waits for chunk 0's inserts (slow from the first); chunk
  // 2 has none of chunk 1's, so it inserts beside chunk 1 (slow after that id), at places after
  // chunk 1's.
  if (testEngine() === 'postgresql') await database.execute(slowInsertOf([items[at(0)].name, items[at(1, 2)].name]));
  const results = await createPlants(items, OPERATOR_COMMAND);

  expect(results[at(1, 1)]).toMatchObject({ status: 200, created: false, plant: { name: 'Ordered 3' } });
  expect(results[at(3, 2)]).toMatchObject({ status: 409, error: { error: 40901 } });
  const repeated = new Set([at(1, 1), at(3, 2)]);
  const firsts = items.filter((_, index) => !repeated.has(index));
  expect(results.filter((result) => result.status === 200 && result.created)).toHaveLength(firsts.length);
  const stored = await engine().plants.list({ order: OLDEST_FIRST, take: items.length + 1 });
  expect(stored.map((plant) => plant.name)).toEqual(firsts.map((item) => item.name));
});

it('a chunk that fails after inserting its plants stores none of them, nor any of the chunks after it; those before stay', async () => {
  const items = batchOf('Undone');
  await database.execute(REFUSE[testEngine()](items[at(1, 5)].id));

  await expect(createPlants(items, OPERATOR_COMMAND)).rejects.toThrow(/refused by the test/);

  expect(await storedPerChunk(items)).toEqual([chunkSize(), 0, 0, 0]);
});

it.runIf(testEngine() === 'postgresql')('a chunk that fails before it has its places stores nothing, nor any chunk after it, one still waiting for its turn included', async () => {
  const items = batchOf('Unplaced');
  // The storage order runs out of places within the second chunk's: its reservation fails while the
  // first chunk still inserts, and the third waits for a free turn.
  await database.execute(`DO $$ BEGIN
    EXECUTE format('ALTER SEQUENCE "Plant_seq_seq" MAXVALUE %s', (SELECT last_value FROM "Plant_seq_seq") + ${chunkSize() + 50});
  END $$`);

  await expect(createPlants(items, OPERATOR_COMMAND)).rejects.toThrow(/reached maximum value/);

  expect(await storedPerChunk(items)).toEqual([chunkSize(), 0, 0, 0]);
});
