// Where the database lives. DATABASE_URL picks it; the default is an SQLite file under ./data.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const DEFAULT_DATABASE_URL = 'file:./data/plants.db';

export function databaseUrl(): string {
  return process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
}

/**
 * The absolute path of an SQLite `file:` URL. Relative paths resolve against the working
 * directory (the project root under `npm start`), never against the build output.
 */
export function sqliteFilePath(url: string = databaseUrl()): string {
  if (!url.startsWith('file:')) {
    throw new Error(`DATABASE_URL must be an SQLite file: URL (file:./data/plants.db), got "${url.split(':')[0]}:..."`);
  }
  const location = url.slice('file:'.length).replace(/^\/\/(?=\/)/, '').split('?')[0];
  return path.resolve(/* turbopackIgnore: true */ process.cwd(), location);
}

/** The SQLite file's path, with its folder created on demand. */
export function ensureSqliteFile(url: string = databaseUrl()): string {
  const file = sqliteFilePath(url);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}
