// The secret that signs sessions. An explicit AUTH_SECRET always wins; otherwise, where the engine
// keeps one beside the database (SQLite: its tools, lib/db/sqlite/tools.ts), one is generated on first run and
// kept there, so a newcomer edits no .env file.
// Anyone may ask /api/auth/csrf for a value keyed by it and test guesses against it offline, and it
// forges sessions and page tokens: so a secret under 32 bytes is refused wherever it is read. Set,
// by the settings (lib/settings): at npm start before anything else, and on first use where nothing
// starts the server (Vercel). In the file beside the database, here.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { engineTools } from '../../db/engine';
import { AUTH_SECRET_MIN_BYTES, HOW_TO_MAKE_AUTH_SECRET, settings } from '../../settings';

export type AuthSecret = { secret: string; source: 'environment' | 'file' | 'generated'; file?: string };

const bytesOf = (secret: string) => Buffer.byteLength(secret, 'utf8');

export function resolveAuthSecret(): AuthSecret {
  const fromEnvironment = settings().AUTH_SECRET;
  if (fromEnvironment) return { secret: fromEnvironment, source: 'environment' };
  // Instances sharing a database (PostgreSQL's) must share the secret too, so none may invent its own.
  const file = engineTools().authSecretFile(settings().DATABASE_URL);
  if (file === null) {
    throw new Error('AUTH_SECRET is required with PostgreSQL: set the same value (openssl rand -base64 32) on every instance');
  }

  try {
    const stored = readFileSync(file, 'utf8').trim();
    // Only an operator's hand writes a short one there.
    if (stored && bytesOf(stored) < AUTH_SECRET_MIN_BYTES) {
      throw new Error(
        `${file} holds a secret of ${bytesOf(stored)} bytes, and AUTH_SECRET must be at least ${AUTH_SECRET_MIN_BYTES}: delete the file to have one generated, or set AUTH_SECRET (${HOW_TO_MAKE_AUTH_SECRET})`,
      );
    }
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
