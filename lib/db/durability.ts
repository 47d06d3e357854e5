// SQLITE_SYNCHRONOUS: how far an SQLite commit is on the disk before the API answers. Read apart
// from the connections so npm start can check it without opening the database.
//
// NORMAL (the default): the write-ahead log is synced at checkpoints, not at every commit; an
// answered write survives a crash of the process, but a power cut or an operating-system crash can
// lose the last commits (never the file's consistency). FULL: the log is synced at every commit (one
// sync per group commit, not per write), so an answered write survives those too. FULL cost
// POST /plants more than the 15 % that would have made it the default
// (docs/performance.md#durability-full-against-normal, docs/decisions.md).
export const SQLITE_SYNCHRONOUS_MODES = ['NORMAL', 'FULL'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];
export const DEFAULT_SQLITE_SYNCHRONOUS: SqliteSynchronous = 'NORMAL';

export function sqliteSynchronous(text = process.env.SQLITE_SYNCHRONOUS?.trim()): SqliteSynchronous {
  if (!text) return DEFAULT_SQLITE_SYNCHRONOUS;
  const mode = text.toUpperCase();
  if (!(SQLITE_SYNCHRONOUS_MODES as readonly string[]).includes(mode)) {
    throw new Error(`SQLITE_SYNCHRONOUS must be NORMAL (the default) or FULL, got "${text}"`);
  }
  return mode as SqliteSynchronous;
}
