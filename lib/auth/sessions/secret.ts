// The secret that signs sessions. An explicit AUTH_SECRET always wins; otherwise, on SQLite, one is
// generated on first run and kept beside the database, so a newcomer edits no .env file.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { databaseEngine, ensureSqliteFile } from '../../db/url';

export type AuthSecret = { secret: string; source: 'environment' | 'file' | 'generated'; file?: string };

export function resolveAuthSecret(): AuthSecret {
  const fromEnvironment = process.env.AUTH_SECRET?.trim();
  if (fromEnvironment) return { secret: fromEnvironment, source: 'environment' };
  // Instances sharing a PostgreSQL database must share the secret too, so none may invent its own.
  if (databaseEngine() !== 'sqlite') {
    throw new Error('AUTH_SECRET is required with PostgreSQL: set the same value (openssl rand -base64 32) on every instance');
  }

  const file = path.join(path.dirname(ensureSqliteFile()), 'auth-secret');
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return { secret: stored, source: 'file', file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32).toString('base64url');
  // 'wx' fails if another process created it meanwhile; then theirs is the one to use.
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolveAuthSecret();
    throw error;
  }
  return { secret, source: 'generated', file };
}
