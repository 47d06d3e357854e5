// Who may hold SQLite's write lock across turns of the event loop in this process: a long plant
// transaction (a batch's, on the plant statements' second connection, lib/db/sqlite/connection.ts)
// or a transaction of Prisma's client (lib/db/client.ts), never both at once.
//
// Why it matters: Prisma's SQLite adapter waits for a locked file synchronously, in the event loop
// (SQLite's busy timeout, 5 s). A Prisma write that met a long transaction's lock would stop the
// event loop, and with it the long transaction that holds the lock, for the whole 5 s, then fail.
// So a Prisma write waits here, without blocking, until no long transaction runs; and a long
// transaction starts only while no Prisma transaction is open. Writes of one statement, and the
// plant statements' group commits, hold the lock within one synchronous call and take no turn here.
import 'server-only';
import { processWide } from '../process-wide';

type Turns = {
  /** The long transaction running now, and its end. */
  long: { ended: Promise<void> } | undefined;
  /** Prisma transactions open now. */
  prismaOpen: number;
  /** Called when the last of them ends: starts a long transaction that waited. */
  onPrismaDone: (() => void) | undefined;
};

const turns = processWide<Turns>('sqlite-writer-turns', () => ({ long: undefined, prismaOpen: 0, onPrismaDone: undefined }));

/** Resolves once no long transaction runs (at once when none does), in a microtask before the next one can start. */
export async function noLongTransaction(): Promise<void> {
  while (turns.long) await turns.long.ended;
}

/** Whether a long transaction runs now. */
export const longTransactionRunning = (): boolean => turns.long !== undefined;

/** Waits for no long transaction, then holds one off until `release` is called (a Prisma transaction's turn). */
export async function prismaTransactionTurn(): Promise<() => void> {
  await noLongTransaction();
  turns.prismaOpen++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    turns.prismaOpen--;
    if (turns.prismaOpen === 0) turns.onPrismaDone?.();
  };
}

/**
 * Starts a long transaction's turn if no Prisma transaction is open: answers its `end`, to call once
 * it has committed or rolled back; else undefined, and `retry` is called once the last one ends.
 */
export function longTransactionTurn(retry: () => void): { end(): void } | undefined {
  if (turns.prismaOpen > 0) {
    turns.onPrismaDone = retry;
    return undefined;
  }
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const running = { ended };
  turns.long = running;
  return {
    end() {
      if (turns.long === running) turns.long = undefined;
      end();
    },
  };
}
