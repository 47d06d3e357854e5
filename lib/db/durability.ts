// SQLITE_SYNCHRONOUS: how far an SQLite commit is on the disk before the API answers. Read apart
// from the connections so npm start can check it without opening the database.
//
// FULL (the default): the write-ahead log is synced at every commit, so an answered write survives
// an operating-system crash or a power cut as well as a crash of the process. NORMAL: the log is
// synced only at checkpoints; an answered write survives a crash of the process, but a power cut can
// lose the last commits (never the file's consistency). With group commit, FULL costs one sync per
// group, not per write: docs/performance.md#durability-full-against-normal has the figures.
export const SQLITE_SYNCHRONOUS_MODES = ['FULL', 'NORMAL'] as const;
export type SqliteSynchronous = (typeof SQLITE_SYNCHRONOUS_MODES)[number];

export function sqliteSynchronous(text = process.env.SQLITE_SYNCHRONOUS?.trim()): SqliteSynchronous {
  if (!text) return 'FULL';
  const mode = text.toUpperCase();
  if (!(SQLITE_SYNCHRONOUS_MODES as readonly string[]).includes(mode)) {
    throw new Error(`SQLITE_SYNCHRONOUS must be FULL (the default) or NORMAL, got "${text}"`);
  }
  return mode as SqliteSynchronous;
}
