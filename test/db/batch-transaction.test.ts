// A batch's transaction beside everything else the process does, in-process on the project's engine.
// On SQLite a batch is one transaction on the event loop: it lets other requests run between slices
// of its work (lib/db/sqlite/connection.ts, long transactions), and what they read is only what has
// been committed. Meanwhile no other write of the process may meet its lock in a way that stops the
// event loop: Prisma's adapter waits for a lock synchronously, so Prisma's writes and the long
// transactions take turns (lib/db/writer-turns.ts).
import Database from 'better-sqlite3';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { db } from '../../lib/db/client';
import { engine } from '../../lib/db/engine';
import { longTransactionRunning } from '../../lib/db/writer-turns';
import { createPlants } from '../../lib/plants/batch';
import { sqliteFilePath } from '../../lib/db/url';
import { uniqueId } from '../support/api';
import { testEngine } from '../support/database';
import { longName } from '../support/long-names';
import { processOnOwnDatabase } from '../support/fixtures';

const database = processOnOwnDatabase();

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A full batch whose names are as long as a name may be: the most work a batch's transaction can be. */
const longBatch = (label: string) => Array.from({ length: 1000 }, (_, index) => ({ id: uniqueId(), name: longName(`${label} ${index}`) }));

/** The longest the event loop went without running a timer while `work` ran, in milliseconds. */
async function longestStallDuring<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = performance.now();
  let stallMs = 0;
  const beat = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  try {
    const result = await work();
    return { result, stallMs: Math.max(stallMs, performance.now() - last) };
  } finally {
    clearInterval(beat);
  }
}

/**
 * Whether some connection holds the database's write lock now (a transaction that has written, or
 * begun IMMEDIATE): asked from a connection of the test's own, which takes the lock and lets it go
 * in one call when it is free. Always true on PostgreSQL, whose writers take no such lock.
 */
function writeLockHeld(): () => boolean {
  if (testEngine() !== 'sqlite') return () => true;
  const probe = new Database(sqliteFilePath(database.url), { timeout: 0 });
  onTestFinished(() => void probe.close());
  return () => {
    try {
      probe.exec('BEGIN IMMEDIATE; ROLLBACK');
      return false;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      return true;
    }
  };
}

describe('a batch being stored', () => {
  it('lets other requests run meanwhile, and they read none of a transaction that has not committed', async () => {
    const before = await engine().plants.count({});
    const chunkSize = engine().plants.chunkSize;
    const writing = writeLockHeld();
    let done = false;
    const stored = createPlants(longBatch('Isolated'), OPERATOR_COMMAND).finally(() => (done = true));
    // Reads as other requests make them, one a turn, until the batch is answered.
    const seenDuring: { count: number; whileWriting: boolean }[] = [];
    while (!done) {
      await nextTurn();
      const count = (await engine().plants.count({})) - before;
      if (!done) seenDuring.push({ count, whileWriting: writing() });
    }
    expect((await stored).every((result) => result.status === 200)).toBe(true);
    // On SQLite the whole batch is one transaction: each read before its commit sees none of it.
    // On PostgreSQL its chunks commit one after another: a read sees whole chunks, never part of one.
    expect(seenDuring.filter(({ count }) => count % chunkSize !== 0)).toEqual([]);
    // Reads ran while the batch's transaction was open: run whole in one turn, it would have let
    // none in between its first write and its commit.
    expect(seenDuring.filter(({ whileWriting }) => whileWriting).length, JSON.stringify(seenDuring)).toBeGreaterThanOrEqual(2);
    expect((await engine().plants.count({})) - before).toBe(1000);
  });

  it.runIf(testEngine() === 'sqlite')('holds up a Prisma write, and a statement that writes, until it commits, without stopping the event loop', async () => {
    // Three batches, stored one after another: their transactions leave a write little room between them.
    const stored = Promise.all([1, 2, 3].map((batch) => createPlants(longBatch(`Beside Prisma ${batch}`), OPERATOR_COMMAND))).then((results) => results.flat());
    await expect.poll(longTransactionRunning, { interval: 1 }).toBe(true);
    const { result, stallMs } = await longestStallDuring(() =>
      Promise.all([
        // A Prisma transaction (a token and its audit record), and a sign-in attempt's claim.
        createApiToken({ name: 'made during a batch' }, OPERATOR_COMMAND),
        engine().loginThrottle.claim(`during a batch ${uniqueId()}`, Date.now(), Date.now() - 60_000, [0, 0, 1000]),
      ]),
    );
    expect(result[0].summary.name).toBe('made during a batch');
    expect(result[1]).toBe(true);
    // Met synchronously, the lock would have held the event loop for Prisma's busy timeout (5 s).
    expect(stallMs).toBeLessThan(1000);
    expect((await stored).every((outcome) => outcome.status === 200)).toBe(true);
  });

  it.runIf(testEngine() === 'sqlite')('waits for a Prisma transaction open when it comes, which then writes without stopping the event loop', async () => {
    const { summary } = await createApiToken({ name: 'to be renamed during a batch' }, OPERATOR_COMMAND);
    let batch: ReturnType<typeof createPlants> | undefined;
    const { stallMs } = await longestStallDuring(() =>
      db().$transaction(async (tx) => {
        // The transaction has begun and has not written yet when the batch comes.
        batch = createPlants(longBatch('After Prisma'), OPERATOR_COMMAND);
        for (let turn = 0; turn < 5; turn++) await nextTurn();
        expect(longTransactionRunning()).toBe(false);
        await tx.apiToken.update({ where: { id: summary.id }, data: { name: 'renamed during a batch' } });
      }),
    );
    expect(stallMs).toBeLessThan(1000);
    expect((await db().apiToken.findUnique({ where: { id: summary.id }, select: { name: true } }))?.name).toBe('renamed during a batch');
    expect((await batch!).every((outcome) => outcome.status === 200)).toBe(true);
  });
});
