// Where the database lives, and which engine it is. DATABASE_URL picks both: `file:` is SQLite
// (the embedded default, under ./data), `postgresql:` or `postgres:` is a PostgreSQL server.
import 'server-only';
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import path from 'node:path';
import { NOT_A_DATABASE_URL, settings } from '../settings';
import type { DatabaseEngine } from './stores';

/** DATABASE_URL (lib/settings refuses an SQLite file on Vercel, where it would lose every plant). */
export function databaseUrl(): string {
  return settings().DATABASE_URL;
}

export function databaseEngine(url: string = databaseUrl()): DatabaseEngine {
  if (url.startsWith('file:')) return 'sqlite';
  if (/^postgres(?:ql)?:\/\//.test(url)) return 'postgresql';
  throw new Error(`DATABASE_URL ${NOT_A_DATABASE_URL}, got "${url.split(':')[0]}:..."`);
}

/**
 * The absolute path of an SQLite `file:` URL. Relative paths resolve against the working
 * directory (the project root under `npm start`), never against the build output.
 */
export function sqliteFilePath(url: string = databaseUrl()): string {
  if (databaseEngine(url) !== 'sqlite') throw new Error('sqliteFilePath: DATABASE_URL is not an SQLite file: URL');
  const location = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '').split('?')[0];
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), location);
}

// The file holds password and token hashes: only its owner may read it, as data/auth-secret.
// SQLite gives the -wal and -shm files it creates the database file's mode.
const OWNER_ONLY = 0o600;

/**
 * The SQLite file's path, with its folder created on demand and the file itself created (or
 * narrowed) to mode 0600 before SQLite opens it.
 */
export function ensureSqliteFile(url: string = databaseUrl()): string {
  const file = sqliteFilePath(url);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Only ever a file that does not exist yet: closing a descriptor of a file drops every POSIX lock
  // this process holds on it, and SQLite's locks are those (this process's connections would lose
  // theirs, and with them what keeps another process out).
  try {
    closeSync(openSync(/* turbopackIgnore: true */ file, 'wx', OWNER_ONLY));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // By path, not by descriptor, for the same reason.
  for (const companion of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if (statSync(/* turbopackIgnore: true */ companion).mode & 0o077) chmodSync(/* turbopackIgnore: true */ companion, OWNER_ONLY);
    } catch (error) {
      // Missing (no WAL yet), or another user's file: not this process's to narrow.
      if (!['ENOENT', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
  return file;
}
