// What the SQLite files hold after a target: the plants a storing target stored, the webhook
// deliveries its creates made, and the file's journal mode.
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { sentPlantId } from './load';
import type { Deliveries, MeasuredTarget, StoredCheck } from './results';
import { checkInterrupted } from './process-groups';
import type { LoadTarget } from './targets';

/**
 * Plants the POST target stored (tag "bench"). Each 2xx answer (preflight, warm-up, run) is one
 * stored plant. When a run's time is up, autocannon closes its connections without waiting for the
 * requests still in flight (one per connection); the server completes those too, so they may be
 * stored without an answer being counted. So: 2xx answers <= stored <= 2xx answers + unanswered.
 */
export async function checkStored(target: LoadTarget, record: MeasuredTarget, databaseFile: string): Promise<Omit<StoredCheck, 'label'>> {
  const connection = new Database(databaseFile, { readonly: true, timeout: 5000 });
  connection.defaultSafeIntegers(true);
  try {
    const count = () => Number(connection.prepare<[], { n: bigint }>(`SELECT count(*) AS n FROM "Plant" WHERE "tag" = 'bench'`).get()!.n);
    let stored = count();
    for (let settle = 0; settle < 20; settle++) {
      await sleep(200);
      const again = count();
      if (again === stored) break;
      stored = again;
    }
    const range = connection
      .prepare<[], { lo: bigint | null; hi: bigint | null }>(`SELECT min("id") AS lo, max("id") AS hi FROM "Plant" WHERE "tag" = 'bench'`)
      .get()!;
    const answered2xx = (record.preflight.status < 300 ? 1 : 0) + record.warmup['2xx'] + record['2xx'];
    const unanswered = record.warmup.sent - record.warmup.completed + (record.sent - record.completed);
    // Both ends are ids this run sent to the target (bench/run/load.ts: at or above the first, below the next it would send).
    const idsInRange = range.lo !== null && range.hi !== null && sentPlantId(target, range.lo) && sentPlantId(target, range.hi);
    const ok = stored >= answered2xx && stored <= answered2xx + unanswered && idsInRange;
    return { stored, answered2xx, unanswered, minId: String(range.lo), maxId: String(range.hi), ok };
  } finally {
    connection.close();
  }
}

type DeliveryState = { unfanned: number; open: number; succeeded: number; failed: number; maxAttempts: number | null };

/**
 * After the webhook target's load: how long until every event it made was delivered (the
 * dispatcher works through a backlog after the load stops), and whether any delivery failed.
 */
export async function drainDeliveries(databaseFile: string, receiverUrl: string): Promise<Deliveries> {
  const connection = new Database(databaseFile, { readonly: true, timeout: 5000 });
  const started = Date.now();
  try {
    const state = () =>
      connection
        .prepare<[], DeliveryState>(
          `SELECT (SELECT count(*) FROM "WebhookEvent" WHERE "fannedOut" = 0) AS "unfanned",
                  (SELECT count(*) FROM "WebhookDelivery" WHERE "status" IN ('pending', 'delivering')) AS "open",
                  (SELECT count(*) FROM "WebhookDelivery" WHERE "status" = 'succeeded') AS "succeeded",
                  (SELECT count(*) FROM "WebhookDelivery" WHERE "status" = 'failed') AS "failed",
                  (SELECT max("attempts") FROM "WebhookDelivery") AS "maxAttempts"`,
        )
        .get()!;
    let now = state();
    while ((now.unfanned > 0 || now.open > 0) && Date.now() - started < 120_000) {
      checkInterrupted();
      await sleep(250);
      now = state();
    }
    const received = ((await (await fetch(`${receiverUrl}/api/health`)).json()) as { received: number }).received;
    const drained = now.unfanned === 0 && now.open === 0;
    return { drainSeconds: (Date.now() - started) / 1000, drained, delivered: now.succeeded, failed: now.failed, maxAttempts: now.maxAttempts, received };
  } finally {
    connection.close();
  }
}

/** The file's journal mode (synchronous is per connection: the server sets it, SQLITE_SYNCHRONOUS). */
export function databasePragmas(file: string): { journal_mode: string } {
  const connection = new Database(file, { timeout: 5000 });
  try {
    connection.prepare('SELECT count(*) FROM sqlite_master').get(); // open the file for real
    return { journal_mode: connection.pragma('journal_mode', { simple: true }) as string };
  } finally {
    connection.close();
  }
}

const SYNCHRONOUS_MODES = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];

/**
 * The file's journal mode, and the synchronous mode of a connection that sets none: what the typical
 * implementation runs with, since Prisma's better-sqlite3 adapter opens the file and sets no pragma
 * (better-sqlite3's build of SQLite has a default of its own for a file in WAL mode).
 */
export function defaultPragmas(file: string): { journal_mode: string; synchronous: string } {
  const connection = new Database(file, { timeout: 5000 });
  try {
    connection.prepare('SELECT count(*) FROM sqlite_master').get(); // open the file for real
    const synchronous = connection.pragma('synchronous', { simple: true }) as number;
    return { journal_mode: connection.pragma('journal_mode', { simple: true }) as string, synchronous: SYNCHRONOUS_MODES[synchronous] ?? String(synchronous) };
  } finally {
    connection.close();
  }
}
