// SQLITE_SYNCHRONOUS: how far an SQLite commit is on the disk before the API answers. Read apart
// from the connections so npm start can check it without opening the database.
//
// FULL (the default): the write-ahead log is synced at every commit (one sync per group commit, not
// per write), so an answered write survives a power cut or an operating-system crash. NORMAL: the
// log is synced at checkpoints only; an answered write survives a crash of the process, but a power
// cut can lose the last commits (never the file's consistency). FULL is the default because it cost
// POST /plants less than the share that would have ruled it out
// (docs/performance.md#durability-full-against-normal, docs/decisions.md).
export const SQLITE_SYNCHRONOUS_MODES = ['NORMAL', 'FULL'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];
export const DEFAULT_SQLITE_SYNCHRONOUS: SqliteSynchronous = 'FULL';

export function sqliteSynchronous(text = process.env.SQLITE_SYNCHRONOUS?.trim()): SqliteSynchronous {
  if (!text) return DEFAULT_SQLITE_SYNCHRONOUS;
  const mode = text.toUpperCase();
  if (!(SQLITE_SYNCHRONOUS_MODES as readonly string[]).includes(mode)) {
    throw new Error(`SQLITE_SYNCHRONOUS must be FULL (the default) or NORMAL, got "${text}"`);
  }
  return mode as SqliteSynchronous;
}
