// The plant store's contract (PlantStore in lib/db/stores.ts) and the change records it writes with
// every change (ChangeRecordStore): the same tests, in-process and with no server, against the engine
// of the vitest project, so SQLite's store and PostgreSQL's are held to one behaviour. A database of
// this file's own; the describes run in order, the empty store first.
import { randomInt } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChangeContext } from '../../../lib/audit/context';
import { answerBusy, DatabaseBusyError } from '../../../lib/db/busy';
import { db } from '../../../lib/db/client';
import { engine } from '../../../lib/db/engine';
import { NEWEST_FIRST, OLDEST_FIRST, type PlantChange, type PlantOrder, type PlantRow, type PlantValues, type RecordChanges } from '../../../lib/db/stores';
import { sqliteFilePath } from '../../../lib/db/url';
import { ApiError } from '../../../lib/errors';
import { recordedChange } from '../../../lib/plants/service';
import { foldForSearch } from '../../../lib/shared/fold';
import { uniqueId } from '../../support/api';
import { testEngine } from '../../support/database';
import { processOnOwnDatabase } from '../../support/fixtures';
import { SEARCH_NAMES } from '../../support/search-names';

const database = processOnOwnDatabase();

const store = () => engine().plants;
const INT64_MAX = 9223372036854775807n;
const INT64_MIN = -9223372036854775808n;
/** For changes whose records a test does not look at. */
const unrecorded: RecordChanges = () => ({ audit: [], events: [] });
const plant = (name: string, tag: string | null = null, id = uniqueId()): PlantValues => ({ id, name, tag });
const insertOne = async (values: PlantValues) => (await store().insertMany([values], unrecorded))[0].row;
/** A row's place in any order, for `after`. */
const past = (row: PlantRow) => ({ seq: row.seq, id: row.id, folded: foldForSearch(row.name) });

describe('an empty store', () => {
  it('has no highest id, offers 1 as the lowest free one, and lists and finds nothing', async () => {
    expect(await store().maxId()).toBeNull();
    expect(await store().lowestFreePositiveId()).toBe(1n);
    expect(await store().list({ order: NEWEST_FIRST, take: 10 })).toEqual([]);
    expect(await store().findById(1n)).toBeNull();
  });
});

describe('insertMany', () => {
  it('inserts in order and answers each item: a taken id inserts nothing and reports the plant that holds it, the first of two equal ids wins', async () => {
    const [held, a, b] = [uniqueId(), uniqueId(), uniqueId()];
    await insertOne(plant('Held', null, held));
    const outcomes = await store().insertMany([plant('First A', 'x', a), plant('Other', null, held), plant('Second A', null, a), plant('B', null, b)], unrecorded);
    expect(outcomes.map(({ inserted, row }) => [inserted, row.id, row.name, row.tag])).toEqual([
      [true, a, 'First A', 'x'],
      [false, held, 'Held', null],
      [false, a, 'First A', 'x'],
      [true, b, 'B', null],
    ]);
    expect(outcomes[3].row.seq).toBeGreaterThan(outcomes[0].row.seq);
    expect(outcomes[2].row).toEqual(outcomes[0].row);
    expect(await store().findById(a)).toEqual(outcomes[0].row);
  });

  it('read what Prisma writes, and write what Prisma reads, to the millisecond', async () => {
    const byPrisma = await db().plant.create({ data: { id: uniqueId(), name: 'Written by Prisma', tag: null } });
    const readDirectly = await store().findById(byPrisma.id);
    expect(readDirectly).toEqual({ seq: byPrisma.seq, id: byPrisma.id, name: byPrisma.name, tag: null, createdAt: byPrisma.createdAt });

    const [{ inserted, row: direct }] = await store().insertMany([{ id: uniqueId(), name: 'Written directly', tag: 'fern' }], unrecorded);
    expect(inserted).toBe(true);
    const readByPrisma = await db().plant.findUnique({ where: { id: direct.id } });
    expect(readByPrisma).toEqual({ ...direct, nameFolded: 'written directly' });
    expect(Math.abs(direct.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('keeps int64 ids exact at both ends, and finds the highest id and the lowest free one', async () => {
    for (const id of [INT64_MIN, 1n, 2n, 3n, 5n]) await insertOne(plant(`Id ${id}`, null, id));
    expect((await store().findById(INT64_MIN))?.id).toBe(INT64_MIN);
    expect(await store().lowestFreePositiveId()).toBe(4n);
    await insertOne(plant('Id 4', null, 4n));
    expect(await store().lowestFreePositiveId()).toBe(6n);
    expect((await store().maxId())! < INT64_MAX).toBe(true);
    await insertOne(plant('The largest', null, INT64_MAX));
    expect(await store().maxId()).toBe(INT64_MAX);
    expect(await store().findById(INT64_MAX)).toMatchObject({ id: INT64_MAX, name: 'The largest' });
  });

  it('40 at once with one id: exactly one inserts, and every other finds the plant it made', async () => {
    const id = uniqueId();
    const outcomes = (await Promise.all(Array.from({ length: 40 }, (_, index) => store().insertMany([plant(`Racer ${index}`, null, id)], unrecorded)))).flat();
    const winners = outcomes.filter((outcome) => outcome.inserted);
    expect(winners).toHaveLength(1);
    expect(outcomes.every((outcome) => outcome.row.seq === winners[0].row.seq && outcome.row.name === winners[0].row.name)).toBe(true);
  });

  // PostgreSQL's store takes the calls of one turn together, in one transaction
  // (lib/db/inserts-together.ts); SQLite's commits them together. Either way each call is its own.
  it('30 calls at once: each gets its own outcomes in order, and records only its own plants; the first call with an id inserts it', async () => {
    const shared = uniqueId();
    const calls = Array.from({ length: 30 }, (_, call) => ({
      plants: call % 10 === 0 ? [plant(`Shared ${call}`, null, shared), plant(`Own ${call}`)] : [plant(`Own ${call}`), plant(`Own ${call} b`, 'pair')],
      recorded: [] as PlantChange[],
    }));
    const outcomes = await Promise.all(
      calls.map((call) =>
        store().insertMany(call.plants, (changes) => {
          call.recorded.push(...changes);
          return { audit: [], events: [] };
        }),
      ),
    );
    calls.forEach((call, index) => {
      expect(outcomes[index].map((outcome) => outcome.row.id)).toEqual(call.plants.map(({ id }) => id));
      const made = outcomes[index].filter((outcome) => outcome.inserted).map((outcome) => outcome.row);
      expect(call.recorded).toEqual(made.map((row) => ({ kind: 'created', plant: row })));
    });
    // Of the three calls that ask for one id, the first in order inserts it.
    expect(outcomes[0][0]).toMatchObject({ inserted: true, row: { name: 'Shared 0' } });
    expect([outcomes[10][0], outcomes[20][0]]).toEqual([
      { inserted: false, row: outcomes[0][0].row },
      { inserted: false, row: outcomes[0][0].row },
    ]);
  });
});

describe('update', () => {
  it('hands change() the plant as stored, stores what it answers (search follows the new name), and lists the change with the plant before', async () => {
    const before = await insertOne(plant('Old name', 'old'));
    let seen: PlantRow | null = null;
    const changes: PlantChange[][] = [];
    const record: RecordChanges = (changed) => (changes.push(changed), { audit: [], events: [] });
    const after = await store().update(before.id, (current) => ((seen = current), { name: 'New name', tag: null }), record);
    expect(seen).toEqual(before);
    expect(after).toEqual({ ...before, name: 'New name', tag: null });
    expect(await store().findById(before.id)).toEqual(after);
    expect(changes).toEqual([[{ kind: 'updated', plant: after, previous: before }]]);
    const found = (folded: string) => store().list({ order: NEWEST_FIRST, folded, take: 1000 }).then((rows) => rows.map((row) => row.id));
    expect(await found(foldForSearch('NEW NAME'))).toContain(before.id);
    expect(await found(foldForSearch('old name'))).not.toContain(before.id);
  });

  it('changes and records nothing when the name and tag stay the same', async () => {
    const before = await insertOne(plant('Same', 'same'));
    let recorded = 0;
    const after = await store().update(before.id, () => ({ name: 'Same', tag: 'same' }), () => (recorded++, { audit: [], events: [] }));
    expect(after).toEqual(before);
    expect(recorded).toBe(0);
  });

  it('changes nothing when change() refuses, and hands it null for a plant that is not there', async () => {
    const before = await insertOne(plant('Kept'));
    await expect(store().update(before.id, () => { throw new ApiError('precondition_failed', 'stale'); }, unrecorded)).rejects.toThrow('stale');
    expect(await store().findById(before.id)).toEqual(before);
    let seen: PlantRow | null | undefined;
    const missing = store().update(uniqueId(), (current) => { seen = current; throw new ApiError('not_found', 'no such plant'); }, unrecorded);
    await expect(missing).rejects.toMatchObject({ kind: 'not_found' });
    expect(seen).toBeNull();
  });

  it('takes turns on one plant: each of ten at once sees the one before it', async () => {
    const { id } = await insertOne(plant('Turns'));
    const seen: string[] = [];
    await Promise.all(
      Array.from({ length: 10 }, () =>
        store().update(id, (current) => (seen.push(current!.name), { name: `${current!.name}+`, tag: null }), unrecorded),
      ),
    );
    expect((await store().findById(id))!.name).toBe(`Turns${'+'.repeat(10)}`);
    expect(new Set(seen).size).toBe(10);
  });
});

describe('delete', () => {
  it('hands check() the plant as stored, deletes it, and lists the change with the plant as it was', async () => {
    const before = await insertOne(plant('Short-lived', 'gone'));
    let seen: PlantRow | null = null;
    const changes: PlantChange[][] = [];
    const deleted = await store().delete(before.id, (current) => void (seen = current), (changed) => (changes.push(changed), { audit: [], events: [] }));
    expect(seen).toEqual(before);
    expect(deleted).toEqual(before);
    expect(await store().findById(before.id)).toBeNull();
    expect(changes).toEqual([[{ kind: 'deleted', previous: before }]]);
    // The id is free again.
    expect((await insertOne(plant('Back again', null, before.id))).seq).toBeGreaterThan(before.seq);
  });

  it('deletes nothing when check() refuses, and hands it null for a plant that is not there', async () => {
    const before = await insertOne(plant('Guarded'));
    await expect(store().delete(before.id, () => { throw new ApiError('precondition_failed', 'stale'); }, unrecorded)).rejects.toThrow('stale');
    expect(await store().findById(before.id)).toEqual(before);
    let seen: PlantRow | null | undefined;
    await expect(store().delete(uniqueId(), (current) => { seen = current; throw new ApiError('not_found', 'no such plant'); }, unrecorded)).rejects.toMatchObject({ kind: 'not_found' });
    expect(seen).toBeNull();
  });

  it('of one plant by five at once: one deletes it, the others find it gone', async () => {
    const { id } = await insertOne(plant('Contested'));
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        store().delete(id, (current) => { if (!current) throw new ApiError('not_found', 'gone'); }, unrecorded),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((result) => result.status === 'rejected').map((result) => (result as PromiseRejectedResult).reason.kind)).toEqual(['not_found', 'not_found', 'not_found', 'not_found']);
  });
});

describe('list', () => {
  it('walks newest first and oldest first past a position, `take` at a time, with or without a search', async () => {
    const marker = `pg${randomInt(1e9, 1e10)}`;
    const tag = `page-${marker}`;
    const rows = (await store().insertMany(Array.from({ length: 5 }, (_, index) => plant(`Paged ${marker} ${index}`, tag)), unrecorded)).map((outcome) => outcome.row);
    // By tag alone, by a search of the trigram index alone and with the tag, and by one of two characters.
    for (const where of [{ tag }, { folded: marker }, { folded: marker, tag }, { folded: 'pa', tag }]) {
      expect(await store().list({ ...where, order: NEWEST_FIRST, take: 2 })).toEqual([rows[4], rows[3]]);
      expect(await store().list({ ...where, order: NEWEST_FIRST, take: 2, after: past(rows[3]) })).toEqual([rows[2], rows[1]]);
      expect(await store().list({ ...where, order: OLDEST_FIRST, take: 3 })).toEqual(rows.slice(0, 3));
      expect(await store().list({ ...where, order: OLDEST_FIRST, take: 3, after: past(rows[2]) })).toEqual(rows.slice(3));
    }
  });

  it('sorts by folded name (equal names in the order added) and by id, each way, and pages through every plant once', async () => {
    const marker = `so${randomInt(1e9, 1e10)}`;
    const tag = `sort-${marker}`;
    const base = uniqueId();
    // Ids out of the order of adding, names out of both; two names equal once folded.
    const specs: [string, bigint][] = [['banana', base + 3n], ['Apple', base + 5n], ['cherry', base + 1n], ['apple', base + 4n], ['Äpfel', base + 2n]];
    const rows = (await store().insertMany(specs.map(([name, id]) => plant(`${name} ${marker}`, tag, id)), unrecorded)).map((outcome) => outcome.row);
    const [banana, appleUpper, cherry, appleLower, apfel] = rows;
    const expected: [PlantOrder, PlantRow[]][] = [
      [{ key: 'name', descending: false }, [appleUpper, appleLower, banana, cherry, apfel]],
      [{ key: 'name', descending: true }, [apfel, cherry, banana, appleLower, appleUpper]],
      [{ key: 'id', descending: false }, [cherry, apfel, banana, appleLower, appleUpper]],
      [{ key: 'id', descending: true }, [appleUpper, appleLower, banana, apfel, cherry]],
      [OLDEST_FIRST, rows],
      [NEWEST_FIRST, [...rows].reverse()],
    ];
    for (const [order, inOrder] of expected) {
      expect(await store().list({ tag, order, take: 10 }), JSON.stringify(order)).toEqual(inOrder);
      // Two at a time, each page past the last row of the one before.
      const walked: PlantRow[] = [];
      for (let after: PlantRow | undefined; ; ) {
        const page = await store().list({ tag, order, take: 2, after: after && past(after) });
        walked.push(...page);
        if (page.length < 2) break;
        after = page[page.length - 1];
      }
      expect(walked).toEqual(inOrder);
      // With a search of the trigram index, and one of two characters, the same order.
      expect(await store().list({ folded: marker, order, take: 10 })).toEqual(inOrder);
      expect(await store().list({ folded: 'so', tag, order, take: 10 })).toEqual(inOrder);
    }
  });

  it('counts what the filter matches, and what lies past a position in an order', async () => {
    const marker = `ct${randomInt(1e9, 1e10)}`;
    const tag = `count-${marker}`;
    expect(await store().count({ tag })).toBe(0);
    const rows = (await store().insertMany(['Fern', 'Fig', 'Moss', 'Fir'].map((name) => plant(`${name} ${marker}`, tag)), unrecorded)).map((outcome) => outcome.row);
    await insertOne(plant(`Other ${marker}`, null));
    expect(await store().count({ tag })).toBe(4);
    expect(await store().count({ folded: marker })).toBe(5);
    expect(await store().count({ folded: foldForSearch('FI'), tag })).toBe(2);
    expect(await store().count({ tag, order: NEWEST_FIRST, after: past(rows[1]) })).toBe(1);
    expect(await store().count({ tag, order: { key: 'name', descending: false }, after: past(rows[1]) })).toBe(2);
    expect(await store().count({})).toBeGreaterThanOrEqual(5);

    // One character and two, with no tag (each engine counts them its own way): a rare letter, so
    // only these plants, and those of earlier runs on the same database, have it.
    const letter = foldForSearch('Ꙩ');
    const before = { one: await store().count({ folded: letter }), two: await store().count({ folded: letter + letter }) };
    await store().insertMany([plant(`Fern ${letter} ${marker}`, null), plant(`Fig ${letter}${letter} ${marker}`, tag), plant(`Moss ${marker}`, null)], unrecorded);
    expect(await store().count({ folded: letter })).toBe(before.one + 2);
    expect(await store().count({ folded: letter + letter })).toBe(before.two + 1);
  });
});

// The stamp by which counts are kept (lib/plants/counts.ts): it must move with every change that
// becomes visible, whoever made it, or a count kept from before would be given after the change.
describe('countStamp', () => {
  it('stays while nothing changes, and moves with every change: a create, a rename, a tag, a delete, and what another connection commits', async () => {
    const stamps: string[] = [await store().countStamp()];
    const moved = async (what: string) => {
      const stamp = await store().countStamp();
      expect(stamps, what).not.toContain(stamp);
      stamps.push(stamp);
    };
    const tag = `stamp-${uniqueId()}`;
    const row = await insertOne(plant('Stamped', tag));
    await moved('a create');
    // Reads change nothing.
    await store().list({ order: NEWEST_FIRST, take: 5 });
    await store().count({ tag });
    await store().stats({ since: '2000-01-01', topTags: 5 });
    expect(await store().countStamp()).toBe(stamps.at(-1));
    // A rename moves no count of a day or a tag, but it changes what a search matches.
    await store().update(row.id, () => ({ name: 'Restamped', tag }), unrecorded);
    await moved('a rename');
    await store().update(row.id, () => ({ name: 'Restamped', tag: null }), unrecorded);
    await moved('a tag removed');
    await store().delete(row.id, () => {}, unrecorded);
    await moved('a delete');
    // Another connection: Prisma's client, and the test's own (as the CLI or another instance would).
    const byPrisma = await db().plant.create({ data: { id: uniqueId(), name: 'Written by Prisma', tag: null } });
    await moved('a create by Prisma');
    await database.execute(`UPDATE "Plant" SET "name" = 'Renamed elsewhere', "nameFolded" = 'renamed elsewhere' WHERE "id" = ${byPrisma.id}`);
    await moved('a rename by another connection');
    await database.execute(`DELETE FROM "Plant" WHERE "id" = ${byPrisma.id}`);
    await moved('a delete by another connection');
    expect(await store().countStamp()).toBe(stamps.at(-1));
  });
});

// Searches: the same answers on both engines, whichever index serves them (moved here from the API
// tests, which keep what the HTTP layer adds: trimming, refusals and Link). Every name and tag here
// carries this run's marker, so the file's other plants never match. Digits only, so no letter a
// test searches for can match it.
describe('search', () => {
  const marker = `qz${randomInt(1e9, 1e10)}`;
  const tag = `t-${marker}`;
  // Stored oldest first, so lists (newest first) show them bottom up.
  const PLANTS = SEARCH_NAMES;
  const withMarker = (...found: string[]) => found.map((name) => `${name} ${marker}`);

  /** Names found by a search, as the plant rules ask for them (folded), narrowed by this run's tag unless told otherwise. */
  async function search(q?: string, narrowTo: string | undefined = tag): Promise<string[]> {
    const folded = q === undefined ? undefined : foldForSearch(q) || undefined;
    return (await store().list({ order: NEWEST_FIRST, take: 100, folded, tag: narrowTo })).map((row) => row.name);
  }

  beforeAll(async () => {
    await store().insertMany(PLANTS.map((name) => plant(`${name} ${marker}`, tag)), unrecorded);
  });

  it('finds a piece of the name in any case, newest first', async () => {
    expect(await search('monstera')).toEqual(withMarker("Monstera 'Thai Constellation'", 'Monstera Deliciosa'));
    expect(await search('STERA dEL')).toEqual(withMarker('Monstera Deliciosa'));
    expect(await search("'thai c")).toEqual(withMarker("Monstera 'Thai Constellation'"));
  });

  it('folds non-ASCII text the same way on both engines', async () => {
    expect(await search('STRASSE')).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search('straße')).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search('ΦΊΚΟΣ')).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search('κοσ λυρ')).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search('монстера')).toEqual(withMarker('МОНСТЕРА ВАРИЕГАТА'));
    expect(await search('istanbul')).toEqual(withMarker('İstanbul ivy'));
    expect(await search('FERN WIDE')).toEqual(withMarker('Ｆｅｒｎ wide'));
    expect(await search('cafe\u0301')).toEqual(withMarker('Café au lait'));
  });

  it('keeps accents significant', async () => {
    expect(await search('cafe')).toEqual([]);
    expect(await search('φικος')).toEqual([]);
  });

  it('takes LIKE and FTS syntax as plain text', async () => {
    const special = withMarker('100% "pure" fern_x \\ back');
    expect(await search('%')).toEqual(special);
    expect(await search('0% "p')).toEqual(special);
    expect(await search('"pure"')).toEqual(special);
    expect(await search('n_x')).toEqual(special);
    expect(await search('\\ b')).toEqual(special);
    expect(await search('e_')).toEqual([]);
    expect(await search('pure AND fern')).toEqual([]);
    expect(await search('pu*')).toEqual([]);
  });

  it('matches one and two characters, below the trigram index', async () => {
    expect(await search('İV')).toEqual(withMarker('İstanbul ivy'));
    expect(await search('ß')).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search('ΦΊ')).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search('%')).toHaveLength(1);
    expect(await search('qq')).toEqual([]);
  });

  it('matches one and two characters outside the BMP, across the whole catalogue', async () => {
    // Two code points but four UTF-16 units: a search of "two characters" on both engines. No tag
    // narrows these, so PostgreSQL answers from the index of names' characters and pairs.
    expect(await search('🪴🌵', undefined)).toEqual(withMarker('Potted 🪴🌵 cactus'));
    expect(await search('🌵', undefined)).toEqual(withMarker('Potted 🪴🌵 cactus'));
    expect(await search('🌵🪴', undefined)).toEqual([]);
  });

  it('finds by the marker alone across all plants, and by q and tag together', async () => {
    const everything = [...PLANTS].reverse().map((name) => `${name} ${marker}`);
    expect(await search(marker, undefined)).toEqual(everything);
    expect(await search(marker)).toEqual(everything);
    expect(await search(marker, `${tag}-other`)).toEqual([]);
  });

  it('matches the tag exactly, case and all', async () => {
    expect(await search()).toHaveLength(PLANTS.length);
    expect(await search(undefined, tag.toUpperCase())).toEqual([]);
    expect(await search(undefined, tag.slice(0, -1))).toEqual([]);
  });

  it('finds a long text by its rarest trigrams only where a name has the whole text, in every order, counted exactly', async () => {
    // Names in one repetitive pattern, so most of the text's trigrams are in every name; some have
    // every trigram of the text but not the text, or its rarest trigram without the rest. The
    // newest come last, more of them than either engine reads before it looks the text up.
    const longTag = `${tag}-long`;
    const names = [
      `orchid 5 plant 3 ${marker}`,
      `orchid 5 plant 4 and plant 3 ${marker}`,
      `plant 3 orchid 5 ${marker}`,
      `orchid 5 plant 33 ${marker}`,
      `Orchid 5 Plant 3 ${marker}`,
      `the orchid 5 plant 3 ${marker}`,
      ...Array.from({ length: 4100 }, (_, index) => `orchid ${index % 1000} plant ${Math.floor(index / 1000) + 4} ${marker}`),
    ];
    const rows: PlantRow[] = [];
    for (let from = 0; from < names.length; from += 1000) {
      rows.push(...(await store().insertMany(names.slice(from, from + 1000).map((name) => plant(name, longTag)), unrecorded)).map((outcome) => outcome.row));
    }
    const [exact, allTrigrams, , longer, otherCase, within] = rows;
    for (const narrowTo of [undefined, longTag]) {
      const text = { folded: 'orchid 5 plant 3', tag: narrowTo };
      expect(await store().list({ ...text, order: NEWEST_FIRST, take: 10 })).toEqual([within, otherCase, longer, exact]);
      expect(await store().list({ ...text, order: NEWEST_FIRST, take: 2, after: past(otherCase) })).toEqual([longer, exact]);
      expect(await store().list({ ...text, order: OLDEST_FIRST, take: 3 })).toEqual([exact, longer, otherCase]);
      expect(await store().list({ ...text, order: { key: 'name', descending: false }, take: 10 })).toEqual([exact, otherCase, longer, within]);
      expect(await store().list({ ...text, order: { key: 'id', descending: true }, take: 10 })).toEqual([exact, longer, otherCase, within].sort((a, b) => (a.id < b.id ? 1 : -1)));
      expect(await store().count(text)).toBe(4);
      expect(await store().count({ ...text, order: NEWEST_FIRST, after: past(otherCase) })).toBe(2);
      // Every trigram in every name but one of the text's: only that one has it.
      expect(await store().list({ folded: 'orchid 5 plant 4 and', tag: narrowTo, order: NEWEST_FIRST, take: 10 })).toEqual([allTrigrams]);
      expect(await store().list({ folded: 'orchid 5 plant zzyzx', tag: narrowTo, order: NEWEST_FIRST, take: 10 })).toEqual([]);
      expect(await store().count({ folded: 'plant 3 orchid 5 plant', tag: narrowTo })).toBe(0);
    }
    // A text whose every trigram, the rarest too, is in every plant of the tag: all of them, counted.
    const everywhere = { folded: 'orchid ', tag: longTag };
    expect(await store().list({ ...everywhere, order: NEWEST_FIRST, take: 20 })).toEqual(rows.slice(-20).reverse());
    expect(await store().list({ ...everywhere, order: OLDEST_FIRST, take: 3, after: past(rows[1]) })).toEqual(rows.slice(2, 5));
    expect(await store().count(everywhere)).toBe(rows.length);
    // A common long text, newest first: the page is the newest plants that have it, wherever they are.
    const common = { folded: `plant 7 ${marker}`, tag: longTag };
    const expected = rows.filter((row) => row.name.includes(`plant 7 ${marker}`)).reverse();
    expect(expected).toHaveLength(1000);
    expect(await store().list({ ...common, order: NEWEST_FIRST, take: 20 })).toEqual(expected.slice(0, 20));
    expect(await store().list({ ...common, order: NEWEST_FIRST, take: 20, after: past(expected[500]) })).toEqual(expected.slice(501, 521));
    expect(await store().count(common)).toBe(1000);
    // Text some names have only long ago: the newest plants do not fill the page.
    const old = { folded: `plant 4 ${marker}`, tag: longTag };
    const olds = rows.filter((row) => row.name.includes(`plant 4 ${marker}`)).reverse();
    expect(olds).toHaveLength(1000);
    expect(await store().list({ ...old, order: NEWEST_FIRST, take: 20 })).toEqual(olds.slice(0, 20));
    expect(await store().count(old)).toBe(1000);
  });

  it('takes LIKE and FTS syntax, quotes and non-ASCII text in a long search as plain text', async () => {
    const special = withMarker('100% "pure" fern_x \\ back');
    expect(await search('100% "pure" fern_x \\ back')).toEqual(special);
    expect(await search('% "pure" f')).toEqual(special);
    expect(await search('n_x \\ bac')).toEqual(special);
    expect(await search('"pure" fern')).toEqual(special);
    expect(await search('100%% "pure"')).toEqual([]);
    expect(await search('fern%x \\ back')).toEqual([]);
    expect(await search('fernzx \\ back')).toEqual([]);
    expect(await search('n_x \\\\ back')).toEqual([]);
    expect(await search('"pure" AND fern')).toEqual([]);
    expect(await search("monstera 'thai")).toEqual(withMarker("Monstera 'Thai Constellation'"));
    expect(await search("monstera ''thai")).toEqual([]);
    expect(await search('ΦΊΚΟΣ ΛΥΡΆΤΑ')).toEqual(withMarker('Φίκος λυράτα'));
    expect(await search('gartenstrasse farn')).toEqual(withMarker('Gartenstraße Farn'));
    expect(await search('potted 🪴🌵 cac')).toEqual(withMarker('Potted 🪴🌵 cactus'));
    expect(await search('potted 🌵🪴 cac')).toEqual([]);
    expect(await search('монстера вариегата')).toEqual(withMarker('МОНСТЕРА ВАРИЕГАТА'));
    // Longer than the trigrams either engine weighs: the whole text is still what is checked.
    expect(await search(`café au lait ${marker}`)).toEqual(withMarker('Café au lait'));
    expect(await search(`Café au lait ${marker} `.repeat(7).trim())).toEqual([]);
    expect(await search(`monstera 'thai constellation' ${marker}`.toUpperCase())).toEqual(withMarker("Monstera 'Thai Constellation'"));
    for (const q of ['100% "pure" fern_x \\ back', 'ΦΊΚΟΣ ΛΥΡΆΤΑ', 'potted 🌵🪴 cac']) {
      expect(await store().count({ folded: foldForSearch(q), tag })).toBe((await search(q)).length);
    }
  });

  it('finds one or two characters that none of the newest 1,024 plants has, wherever the older names have them', async () => {
    // SQLite looks such text up among its search table's terms (lib/db/sqlite/short-search.ts)
    // instead of reading every plant, through the two characters it puts after each name: text that
    // starts, ends or is a name. The letters are rare ones; one pair holds a quote.
    const names = [`ǯʒ`, `ǯʒ starts ${marker}`, `in the ǯʒ middle ${marker}`, `ends ${marker} ǯʒ`, `a "ǯ quote ${marker}`, `ǯ ʒ apart ${marker}`];
    const pairTag = `${tag}-pairs`;
    const rows = (await store().insertMany(names.map((name) => plant(name, pairTag)), unrecorded)).map((outcome) => outcome.row);
    for (let from = 0; from < 1100; from += 275) {
      await store().insertMany(Array.from({ length: 275 }, (_, index) => plant(`Newer ${from + index}`, pairTag)), unrecorded);
    }
    const [exactly, starts, middle, ends, quoted, apart] = rows;
    for (const narrowTo of [undefined, pairTag]) {
      const pair = { folded: foldForSearch('ǮƷ'), tag: narrowTo };
      expect(await store().list({ ...pair, order: NEWEST_FIRST, take: 10 })).toEqual([ends, middle, starts, exactly]);
      expect(await store().list({ ...pair, order: OLDEST_FIRST, take: 2, after: past(starts) })).toEqual([middle, ends]);
      expect(await store().list({ ...pair, order: { key: 'name', descending: false }, take: 10 })).toEqual([ends, middle, exactly, starts]);
      expect(await store().count(pair)).toBe(4);
      expect(await store().list({ folded: '"ǯ', tag: narrowTo, order: NEWEST_FIRST, take: 10 })).toEqual([quoted]);
      expect(await store().list({ folded: 'ʒǯ', tag: narrowTo, order: NEWEST_FIRST, take: 10 })).toEqual([]);
      expect(await store().list({ folded: 'ʒ', tag: narrowTo, order: NEWEST_FIRST, take: 10 })).toEqual([apart, ends, middle, starts, exactly]);
      expect(await store().count({ folded: 'ǯ', tag: narrowTo })).toBe(6);
    }
    // A tag of fewer plants than the sample: the sample is all of them.
    const fewTag = `${tag}-few`;
    const [few] = (await store().insertMany([plant(`few ʒ ${marker}`, fewTag), plant(`few ${marker}`, fewTag)], unrecorded)).map((outcome) => outcome.row);
    expect(await store().list({ folded: 'ǯʒ', tag: fewTag, order: NEWEST_FIRST, take: 10 })).toEqual([]);
    expect(await store().count({ folded: 'ǯ', tag: fewTag })).toBe(0);
    expect(await store().list({ folded: 'ʒ', tag: fewTag, order: NEWEST_FIRST, take: 10 })).toEqual([few]);
  });
});

// What every plant change writes besides itself, in its own transaction (ChangeRecordStore), made by
// the plant rules' own recordedChange (lib/plants/service.ts) and read back through Prisma.
describe('stats', () => {
  // What the figures must say, counted here from the plants themselves (Prisma's client, so not the
  // statements under test): both engines answer from counts their triggers keep (PostgreSQL's
  // plus the changes not yet folded into them, test/postgresql/catalogue-storage.test.ts).
  async function counted(since: string) {
    const plants = await db().plant.findMany({ select: { tag: true, createdAt: true } });
    const tags = new Map<string, number>();
    const days = new Map<string, number>();
    for (const { tag, createdAt } of plants) {
      if (tag !== null) tags.set(tag, (tags.get(tag) ?? 0) + 1);
      const day = createdAt.toISOString().slice(0, 10);
      if (day >= since) days.set(day, (days.get(day) ?? 0) + 1);
    }
    return {
      total: plants.length,
      tagged: [...tags.values()].reduce((sum, count) => sum + count, 0),
      tags: [...tags].map(([tag, count]) => ({ tag, count })).sort(bySize),
      perDay: [...days].map(([day, count]) => ({ day, count })).sort((a, b) => (a.day < b.day ? -1 : 1)),
    };
  }
  // Every tag (the file's plants have fewer than a thousand), largest first; equal sizes are put in
  // one order here, as the engines' collations may order them differently.
  const bySize = (a: { tag: string; count: number }, b: { tag: string; count: number }) => b.count - a.count || (a.tag < b.tag ? -1 : 1);
  const stats = async (since: string) => {
    const rows = await store().stats({ since, topTags: 1000 });
    const sizes = rows.tags.map((entry) => entry.count);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    return { ...rows, tags: [...rows.tags].sort(bySize), perDay: [...rows.perDay].sort((a, b) => (a.day < b.day ? -1 : 1)) };
  };

  it('agree with the plants after creates, a batch, tag changes, a renamed plant, deletes, and a day gone by', async () => {
    const since = '2000-01-01';
    expect(await stats(since)).toEqual(await counted(since));
    const tag = `stats-${uniqueId()}`;
    const created = await store().insertMany([plant('Counted one', tag), plant('Counted two', tag), plant('Counted three', null), plant('Other tag', `${tag}-b`)], unrecorded);
    expect(await stats(since)).toEqual(await counted(since));
    // A tag moved, a tag removed, a tag given, a name changed with the tag kept.
    await store().update(created[0].row.id, () => ({ name: 'Counted one', tag: `${tag}-b` }), unrecorded);
    await store().update(created[1].row.id, () => ({ name: 'Counted two', tag: null }), unrecorded);
    await store().update(created[2].row.id, () => ({ name: 'Counted three', tag }), unrecorded);
    await store().update(created[3].row.id, () => ({ name: 'Renamed', tag: `${tag}-b` }), unrecorded);
    expect(await stats(since)).toEqual(await counted(since));
    // The last plant of a tag gone: the tag is not listed with a count of nought.
    await store().delete(created[2].row.id, () => {}, unrecorded);
    const after = await stats(since);
    expect(after.tags.map((entry) => entry.tag)).not.toContain(tag);
    expect(after).toEqual(await counted(since));
    // A plant of another day (Prisma writes its creation time), and a range that starts after it.
    await db().plant.create({ data: { id: uniqueId(), name: 'Of a past day', tag, createdAt: new Date('2020-02-29T23:59:59.999Z') } });
    expect(await stats(since)).toEqual(await counted(since));
    expect(await stats('2020-03-01')).toEqual(await counted('2020-03-01'));
    expect((await stats('2020-03-01')).perDay.map((row) => row.day)).not.toContain('2020-02-29');
  });
});

describe('change records', () => {
  const context: ChangeContext = { actor: { type: 'token', id: 'tok_contract', name: 'contract tests' }, requestId: 'req-contract', clientAddress: '192.0.2.7' };
  const recordsOf = async (id: bigint) => ({
    audit: await db().auditEvent.findMany({ where: { targetType: 'plant', targetId: String(id) }, orderBy: { seq: 'asc' } }),
    events: await db().webhookEvent.findMany({ where: { plantId: id }, orderBy: { seq: 'asc' } }),
  });
  const setEndpointEnabled = (enabled: boolean) =>
    db().webhookEndpoint.upsert({
      where: { id: 'wh_contract' },
      create: { id: 'wh_contract', url: 'https://192.0.2.1/hooks', secret: 'whsec_contract', events: 'plant.created,plant.updated,plant.deleted', enabled },
      update: { enabled },
    });

  it("are written in the change's transaction as Prisma reads them: an audit record, and while an endpoint is enabled an event, ids exact", async () => {
    await setEndpointEnabled(true);
    const id = INT64_MAX - 1n;
    await recordedChange(context, (record) => store().insertMany([plant('Recorded', 'rec', id)], record));
    await recordedChange(context, (record) => store().update(id, () => ({ name: 'Recorded again', tag: null }), record));
    await recordedChange(context, (record) => store().delete(id, () => {}, record));
    const { audit, events } = await recordsOf(id);
    expect(audit.map((row) => [row.action, row.before, row.after])).toEqual([
      ['plant.created', null, '{"id":9223372036854775806,"name":"Recorded","tag":"rec"}'],
      ['plant.updated', '{"id":9223372036854775806,"name":"Recorded","tag":"rec"}', '{"id":9223372036854775806,"name":"Recorded again"}'],
      ['plant.deleted', '{"id":9223372036854775806,"name":"Recorded again"}', null],
    ]);
    expect(audit[0]).toMatchObject({ actorType: 'token', actorId: 'tok_contract', actorName: 'contract tests', requestId: 'req-contract', clientAddress: '192.0.2.7', targetId: '9223372036854775806' });
    expect(events.map((event) => [event.type, event.plantId, event.endpointId, event.fannedOut])).toEqual([
      ['plant.created', id, null, false],
      ['plant.updated', id, null, false],
      ['plant.deleted', id, null, false],
    ]);
    expect(events[0].id).toMatch(/^msg_\w{24}$/);
    // The event and the audit record of one change carry the same moment, to the millisecond.
    expect(events.map((event) => event.createdAt)).toEqual(audit.map((row) => row.at));
    expect(events[0].payload).toBe(`{"type":"plant.created","timestamp":"${audit[0].at.toISOString()}","data":{"id":9223372036854775806,"name":"Recorded","tag":"rec"}}`);
  });

  // A change of one plant, and one of a batch chunk's size: an engine may decide whether events are
  // wanted differently by size (PostgreSQL asks first only for a large change).
  const SIZES = [1, 3, 250];
  /** Stores `size` new plants in one recorded change; answers [size, their plant.created audit records, their events]. */
  const storeRecorded = async (size: number) => {
    const ids = Array.from({ length: size }, () => uniqueId());
    await recordedChange(context, (record) => store().insertMany(ids.map((id, index) => plant(`Batch ${index}`, null, id)), record));
    const audit = await db().auditEvent.count({ where: { action: 'plant.created', targetType: 'plant', targetId: { in: ids.map(String) } } });
    const events = await db().webhookEvent.count({ where: { plantId: { in: ids } } });
    return [size, audit, events];
  };

  it('make no event while no endpoint is enabled, and the audit records all the same, whatever the size of the change', async () => {
    await setEndpointEnabled(false);
    for (const size of SIZES) expect(await storeRecorded(size)).toEqual([size, size, 0]);
    await setEndpointEnabled(true);
  });

  it('of a batch are all written in its one transaction, an event for each plant while an endpoint is enabled', async () => {
    await setEndpointEnabled(true);
    for (const size of SIZES) expect(await storeRecorded(size)).toEqual([size, size, size]);
  });

  it('are undone with the change, and the change with them', async () => {
    const refused = uniqueId();
    await expect(store().insertMany([plant('No records', null, refused)], () => { throw new Error('no records'); })).rejects.toThrow('no records');
    expect(await store().findById(refused)).toBeNull();
    // A record the database refuses (an audit record needs an action) takes the plant with it.
    const unwritable = uniqueId();
    const broken: RecordChanges = () => ({
      audit: [{ at: new Date(), action: null as unknown as string, actorType: 'system', actorId: null, actorName: 'test', targetType: 'plant', targetId: String(unwritable), requestId: null, clientAddress: null, before: null, after: null }],
      events: [],
    });
    await expect(store().insertMany([plant('Unwritable records', null, unwritable)], broken)).rejects.toThrow();
    expect(await store().findById(unwritable)).toBeNull();
    expect((await recordsOf(unwritable)).audit).toEqual([]);
  });

  it('are never updated: the database refuses', async () => {
    const update = db().$executeRawUnsafe(`UPDATE "AuditEvent" SET "actorName" = 'someone else'`);
    await expect(update).rejects.toThrow(/audit records are never updated/);
  });
});

describe('a database that stays busy', () => {
  it("is answered 503 with Retry-After: 1, whichever engine's busy error it is", async () => {
    for (const busy of [new DatabaseBusyError(new Error('SQLITE_BUSY')), Object.assign(new Error('Transaction API error'), { code: 'P2028' })]) {
      const answer = await answerBusy(Promise.reject(busy)).catch((error: unknown) => error);
      expect(answer).toBeInstanceOf(ApiError);
      expect(answer).toMatchObject({ kind: 'unavailable', status: 503, message: 'The database is busy: retry in a moment', headers: { 'Retry-After': '1' } });
    }
    const other = new Error('something else');
    await expect(answerBusy(Promise.reject(other))).rejects.toBe(other);
  });

  // Another connection holding SQLite's write lock, as a migration or a long transaction would.
  const holdWriteLock = () => {
    const connection = new Database(sqliteFilePath(database.url));
    connection.exec('BEGIN IMMEDIATE');
    return () => {
      connection.exec('COMMIT');
      connection.close();
    };
  };

  it.runIf(testEngine() === 'sqlite')('(SQLite) makes a change wait for a lock held elsewhere without holding the event loop, then stores it', async () => {
    const release = holdWriteLock();
    const id = uniqueId();
    const stored = store().insertMany([plant('Patient', null, id)], unrecorded);
    // The event loop keeps turning while the change waits: a 300 ms timer, the probe of this
    // measurement, fires in time, where a write that waited for the lock synchronously would hold
    // the loop for its 5 s.
    const started = Date.now();
    const timerProbe = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await timerProbe(300);
    expect(Date.now() - started).toBeLessThan(2000);
    release();
    expect((await stored)[0]).toMatchObject({ inserted: true, row: { id, name: 'Patient' } });
  });

  it.runIf(testEngine() === 'sqlite')('(SQLite) gives a change up after 5 s with 503, and stores nothing', async () => {
    const release = holdWriteLock();
    const id = uniqueId();
    let answer: unknown;
    try {
      answer = await store().insertMany([plant('Impatient', null, id)], unrecorded).catch((error: unknown) => error);
    } finally {
      release();
    }
    expect(answer).toMatchObject({ kind: 'unavailable', headers: { 'Retry-After': '1' } });
    expect(await store().findById(id)).toBeNull();
  }, 15_000);

  // Another session inserting the plant with the same id, not yet committed: an insert of that id
  // waits to learn whether it will commit.
  const holdIdOnPostgresql = async (id: bigint) => {
    const session = new pg.Client({ connectionString: database.url });
    await session.connect();
    await session.query('BEGIN');
    await session.query(`INSERT INTO "Plant" ("id", "name", "nameFolded") VALUES ($1::text::bigint, 'Held', 'held')`, [id.toString()]);
    return async () => {
      await session.query('ROLLBACK');
      await session.end();
    };
  };

  it.runIf(testEngine() === 'postgresql')('(PostgreSQL) makes a change wait for a lock held elsewhere, then stores it once the lock is gone', async () => {
    const id = uniqueId();
    const release = await holdIdOnPostgresql(id);
    const stored = store().insertMany([plant('Patient', null, id)], unrecorded);
    const stillWaiting = Symbol('still waiting');
    expect(await Promise.race([stored, new Promise((resolve) => setTimeout(() => resolve(stillWaiting), 500))])).toBe(stillWaiting);
    await release();
    expect((await stored)[0]).toMatchObject({ inserted: true, row: { id, name: 'Patient' } });
  });

  it.runIf(testEngine() === 'postgresql')('(PostgreSQL) gives a change up after 5 s with 503, and stores nothing', async () => {
    const id = uniqueId();
    const release = await holdIdOnPostgresql(id);
    const started = Date.now();
    let answer: unknown;
    try {
      answer = await store().insertMany([plant('Impatient', null, id)], unrecorded).catch((error: unknown) => error);
    } finally {
      await release();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    expect(answer).toMatchObject({ kind: 'unavailable', headers: { 'Retry-After': '1' } });
    expect(await store().findById(id)).toBeNull();
  }, 15_000);
});
