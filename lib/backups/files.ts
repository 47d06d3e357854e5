// The backup files in a folder: their names, listing them, finding one by name without leaving the
// folder, opening one to send it, and pruning the oldest. Only files named as this module names
// them are ever listed, served or deleted, so nothing else an operator keeps in the folder is touched.
import 'server-only';
import { constants } from 'node:fs';
import { lstat, open, readdir, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

// plants-2026-11-26T10-30-00-000Z.db: sorts by time, and is safe in a URL and on any filesystem.
const BACKUP_NAME = /^plants-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.db$/;
// What a backup that never finished leaves (lib/db/sqlite/maintenance.ts writes to FILE.partial).
const PARTIAL = /^plants-.*\.db\.partial(?:-journal|-wal|-shm)?$/;

export type BackupFile = { name: string; bytes: number; modifiedAt: Date };

export function isBackupName(name: string): boolean {
  return BACKUP_NAME.test(name);
}

/** A new backup's path in `dir`, named for `now`. */
export function newBackupPath(dir: string, now = new Date()): string {
  return path.join(dir, `plants-${now.toISOString().replace(/[:.]/g, '-')}.db`);
}

/** The backups in `dir`, newest first; none when the folder does not exist (yet). */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  let names: string[];
  try {
    names = await readdir(/* turbopackIgnore: true */ dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: BackupFile[] = [];
  for (const name of names.filter(isBackupName)) {
    // lstat: a symbolic link planted in the folder is not a backup.
    const stats = await lstat(/* turbopackIgnore: true */ path.join(dir, name)).catch(() => null);
    if (stats?.isFile()) files.push({ name, bytes: stats.size, modifiedAt: stats.mtime });
  }
  return files.sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

/**
 * The path of the backup called `name` in `dir`, or null when no such backup is there. The name
 * must be a backup's name (no separators, no dots but the extension's), so it cannot lead out of
 * the folder, and the file must be a regular file listed there.
 */
export async function findBackup(dir: string, name: string): Promise<(BackupFile & { path: string }) | null> {
  if (!isBackupName(name)) return null;
  const found = (await listBackups(dir)).find((file) => file.name === name);
  return found ? { ...found, path: path.join(dir, name) } : null;
}

// O_NOFOLLOW: a symbolic link in a backup's place is refused by the open itself (ELOOP), so one
// swapped in after a listing saw a regular file there is refused too. O_NONBLOCK: a FIFO there
// opens at once instead of waiting for a writer, and is then refused as no regular file; on a
// regular file it changes nothing.
const OPEN_FOR_SENDING = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * The backup called `name` in `dir`, open for reading, or null when no such backup is there: the
 * name must be a backup's name, and the file, as its open descriptor describes it, a regular file.
 * Nothing is looked up by name before the open, so nothing can change between a check and the
 * open. The caller closes `file`.
 */
export async function openBackup(dir: string, name: string): Promise<{ name: string; bytes: number; file: FileHandle } | null> {
  if (!isBackupName(name)) return null;
  let file: FileHandle;
  try {
    file = await open(/* turbopackIgnore: true */ path.join(dir, name), OPEN_FOR_SENDING);
  } catch (error) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes((error as NodeJS.ErrnoException).code ?? '')) return null;
    throw error;
  }
  const stats = await file.stat().catch(async (error: unknown) => {
    await file.close();
    throw error;
  });
  if (stats.isFile()) return { name, bytes: stats.size, file };
  await file.close();
  return null;
}

/** Deletes all but the newest `keep` backups, and what unfinished ones left; returns the names deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(keep).map((file) => file.name);
  const partial = (await readdir(/* turbopackIgnore: true */ dir).catch(() => [] as string[])).filter((name) => PARTIAL.test(name));
  for (const name of [...old, ...partial]) await rm(/* turbopackIgnore: true */ path.join(dir, name), { force: true });
  return old;
}
