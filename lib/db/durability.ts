// SQLITE_SYNCHRONOUS: how far an SQLite commit is on the disk before the API answers (lib/settings
// reads and checks it).
//
// FULL (the default): the write-ahead log is synced at every commit (one sync per group commit, not
// per write), so an answered write survives a power cut or an operating-system crash. NORMAL: the
// log is synced at checkpoints only; an answered write survives a crash of the process, but a power
// cut can lose the last commits (never the file's consistency). FULL is the default because it cost
// POST /plants less than the share that would have ruled it out
// (docs/performance.md#durability-full-against-normal, docs/decisions.md).
import { settings, type SqliteSynchronous } from '../settings';

export function sqliteSynchronous(): SqliteSynchronous {
  return settings().SQLITE_SYNCHRONOUS;
}
