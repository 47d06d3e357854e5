// AUTH_SECRET signs sessions and page tokens, and anyone may ask /api/auth/csrf for a value keyed
// by it and test guesses offline: a secret under 32 bytes (its UTF-8 bytes, as given) is refused,
// with a message that says how to make one, wherever the secret is read (lib/settings, and
// lib/auth/sessions/secret.ts for the file beside an SQLite database).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAuthSecret } from '../../lib/auth/sessions/secret';
import { readSettings } from '../../lib/settings';
import { envAsItIs, setEnv } from '../support/settings';

const HOW_TO_MAKE = 'make one with  openssl rand -base64 32';

/** AUTH_SECRET as the settings read it from `env`. */
const configuredAuthSecret = (env: Record<string, string>) => readSettings(env).settings.AUTH_SECRET;

describe('the AUTH_SECRET setting', () => {
  it.each([
    ['secret', 6],
    ['x'.repeat(31), 31],
    // Spaces around it are not part of it.
    [`  ${'x'.repeat(31)}\n`, 31],
    // 16 characters of 2 bytes and one short of 32 bytes.
    ['é'.repeat(15) + 'x', 31],
  ])('refuses %j: %i bytes', (secret, bytes) => {
    expect(() => configuredAuthSecret({ AUTH_SECRET: secret })).toThrow(`AUTH_SECRET must be at least 32 bytes, got ${bytes}: ${HOW_TO_MAKE}`);
  });

  it.each([
    ['x'.repeat(32)],
    // Counted in UTF-8 bytes, as given: 16 characters, 32 bytes.
    ['é'.repeat(16)],
    // What openssl rand -base64 32 prints: 44 characters, counted as they are, not decoded.
    ['q7ZKoGJ3Fv0uJ0mB1cT0wq1Y1mS8Q2nqGmU4jL9Xc6A='],
  ])('takes %j', (secret) => {
    expect(configuredAuthSecret({ AUTH_SECRET: secret })).toBe(secret);
  });

  it('is undefined when AUTH_SECRET is not set, or blank', () => {
    expect(configuredAuthSecret({})).toBeUndefined();
    expect(configuredAuthSecret({ AUTH_SECRET: '  ' })).toBeUndefined();
  });
});

describe('resolveAuthSecret on SQLite', () => {
  const restoreEnv = envAsItIs('AUTH_SECRET', 'DATABASE_URL');
  const folders: string[] = [];
  afterEach(() => {
    restoreEnv();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A folder of the test's own with DATABASE_URL naming a file there, and AUTH_SECRET unset. */
  function sqliteFolder(): string {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'plant-store-auth-secret-'));
    folders.push(folder);
    setEnv({ DATABASE_URL: `file:${path.join(folder, 'plants.db')}`, AUTH_SECRET: undefined });
    return folder;
  }

  it('refuses a weak AUTH_SECRET, though it would otherwise win', () => {
    sqliteFolder();
    setEnv({ AUTH_SECRET: 'secret' });
    expect(() => resolveAuthSecret()).toThrow(`AUTH_SECRET must be at least 32 bytes, got 6: ${HOW_TO_MAKE}`);
  });

  it('generates a secret long enough, and takes it back from its file', () => {
    sqliteFolder();
    const generated = resolveAuthSecret();
    expect(generated.source).toBe('generated');
    expect(Buffer.byteLength(generated.secret)).toBeGreaterThanOrEqual(32);
    expect(resolveAuthSecret()).toEqual({ secret: generated.secret, source: 'file', file: generated.file });
  });

  it('refuses a weak secret written into data/auth-secret, and names the file', () => {
    const file = path.join(sqliteFolder(), 'auth-secret');
    writeFileSync(file, 'secret\n');
    expect(() => resolveAuthSecret()).toThrow(`${file} holds a secret of 6 bytes, and AUTH_SECRET must be at least 32: delete the file to have one generated, or set AUTH_SECRET (${HOW_TO_MAKE}`);
  });
});
