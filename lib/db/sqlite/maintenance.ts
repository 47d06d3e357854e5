// Backups, restore and checks of an SQLite database (the MaintenanceStore of lib/db/stores.ts).
//
// A backup is SQLite's online backup API (better-sqlite3's backup()) from this process's own
// connection: a consistent copy taken while the server serves and writes. Pages changed by this same
// connection while the copy runs are carried into it; a change by another connection (Prisma's, a
// CLI's, another process's) makes SQLite start the copy again, and then the rest is copied in one
// step, which in WAL mode is a consistent snapshot that holds up no writer.
//
// Whether a server uses the file: every server process holds a shared lock on `<database>.lock`
// (an SQLite read transaction on an empty file beside the database) for as long as it lives; a
// restore takes the exclusive lock, which it cannot get while any server holds the shared one. These
// are the operating system's advisory locks (fcntl), so a server that dies, even by kill -9, lets
// go of its lock with its process: nothing is left behind to clean up, and no pid can be reused.
import 'server-only';
import { chmodSync, closeSync, copyFileSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { log } from '../../log';
import { processWide } from '../../process-wide';
import { applyMigrationsWith } from '../schema-engine';
import { sqliteTools } from './tools';
import type { AuditRow, CarriedAccess, MaintenanceStore } from '../stores';
import { ensureSqliteFile } from '../url';
import { sqliteDatabase } from './connection';
import { carryEndedAccess, readEndedAccess, recordRestore, type EndedAccess } from './restore-access';
import { assertSchemaOfMigrations } from './restore-schema';

const OWNER_ONLY = 0o600;
// Pages a backup copies per step (4 MiB at the default page size); the event loop runs between steps.
const PAGES_PER_STEP = 1024;
const ALL_PAGES = 0x7fffffff;

/** Creates `file` empty, readable by its owner only, before SQLite writes the database into it. */
function createOwnerOnly(file: string): void {
  closeSync(openSync(file, 'wx', OWNER_ONLY));
}

export function serverLockFile(databaseFile: string): string {
  return `${databaseFile}.lock`;
}

function openLock(databaseFile: string, timeoutMs: number): Database.Database {
  const file = serverLockFile(databaseFile);
  try {
    createOwnerOnly(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return new Database(file, { timeout: timeoutMs });
}

const serverLock = processWide('sqlite-server-lock', () => ({ held: undefined as Database.Database | undefined }));

function holdAsServer(): void {
  if (serverLock.held?.open) return;
  const databaseFile = ensureSqliteFile();
  // A restore holds the exclusive lock for as long as it runs; a server starting meanwhile waits a
  // little for it, then serves without its lock (and says so) rather than not at all.
  const lock = openLock(databaseFile, 5000);
  try {
    lock.exec('BEGIN');
    lock.prepare('SELECT count(*) FROM sqlite_master').get();
    serverLock.held = lock;
  } catch (error) {
    lock.close();
    log.error('could not take the server lock: a restore may be replacing the database', {
      lockFile: serverLockFile(databaseFile),
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/**
 * Opens a database file a restore reads or writes. A file's schema is code (views, triggers,
 * indexes and checks call functions), and a backup's may come from anyone who could write the file:
 * with trusted_schema off, SQLite runs none of its functions or virtual tables that are not
 * innocuous, and refuses the schema that would. Everything a restore does to a file goes through
 * here, its integrity check included; the copy's schema is then compared with the migrations'
 * (restore-schema.ts) before anything else runs on it.
 */
function openUntrusted(file: string): Database.Database {
  const database = new Database(file, { fileMustExist: true, timeout: 5000 });
  database.pragma('trusted_schema = OFF');
  return database;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Opens a database file for a check, saying plainly when it is no SQLite database at all. */
function openChecked(file: string, name: string): Database.Database {
  let database: Database.Database | undefined;
  try {
    database = openUntrusted(file);
    // Reading the schema is what finds a file that is not a database, and one that calls what it may not.
    database.prepare('SELECT count(*) FROM sqlite_master').get();
    return database;
  } catch (error) {
    database?.close();
    if (/unsafe use of/.test(messageOf(error))) {
      throw new Error(`${name} calls a function a database file may not call (${messageOf(error)}). Nothing was changed.`, { cause: error });
    }
    throw new Error(`${name} is not a readable SQLite database (${messageOf(error)})`, { cause: error });
  }
}

function integrityOf(database: Database.Database): string[] {
  return (database.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[]).map((row) => row.integrity_check);
}

function assertIntact(database: Database.Database, what: string): void {
  let found: string[];
  try {
    found = integrityOf(database);
  } catch (error) {
    throw new Error(`${what} failed its integrity check: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (found.length !== 1 || found[0] !== 'ok') throw new Error(`${what} failed its integrity check: ${found.slice(0, 5).join('; ')}`);
}

async function backup(file: string): Promise<{ bytes: number }> {
  const partial = `${file}.partial`;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  rmSync(partial, { force: true });
  createOwnerOnly(partial);
  try {
    let remaining = Infinity;
    await sqliteDatabase().backup(partial, {
      progress: ({ remainingPages }) => {
        // More pages left than last time: another connection wrote, and SQLite started over.
        const restarted = remainingPages > remaining;
        remaining = remainingPages;
        return restarted ? ALL_PAGES : PAGES_PER_STEP;
      },
    });
    const copy = new Database(partial, { fileMustExist: true });
    try {
      // One self-contained file (no -wal or -shm beside it); a restore turns WAL on again.
      copy.pragma('journal_mode = DELETE');
      assertIntact(copy, 'the copy');
    } finally {
      copy.close();
    }
    renameSync(partial, file);
  } catch (error) {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
    throw error;
  }
  return { bytes: statSync(file).size };
}

async function integrity(): Promise<string[]> {
  return integrityOf(sqliteDatabase());
}

/** The migrations a database file has applied, refusing one that is no Plant Store database. */
function appliedMigrations(database: Database.Database, file: string): string[] {
  try {
    return (
      database
        .prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name')
        .all() as { migration_name: string }[]
    ).map((row) => row.migration_name);
  } catch (error) {
    throw new Error(`${file} is not a Plant Store database: it has no record of migrations (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}

/** Folds an SQLite file's write-ahead log into it and closes it, so the file alone is the database. */
function checkpointAndClose(file: string): void {
  const database = openUntrusted(file);
  try {
    database.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    database.close();
  }
  for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
}

const timestamp = (date = new Date()) => date.toISOString().replace(/[:.]/g, '-');

/** What limits access in the database about to be replaced; a refusal when it cannot be read. */
function endedAccessIn(databaseFile: string): EndedAccess {
  let database: Database.Database | undefined;
  try {
    database = openUntrusted(databaseFile);
    database.pragma('query_only = ON');
    return readEndedAccess(database);
  } catch (error) {
    throw new Error(
      `The database being replaced (${databaseFile}) could not be read to carry over the access it ended (${messageOf(error)}). Nothing was changed. ` +
        'To restore without carrying anything over, move it (with its -wal and -shm) aside first: the access ended after the backup then comes back.',
      { cause: error },
    );
  } finally {
    database?.close();
  }
}

async function restore(
  file: string,
  knownMigrations: readonly string[],
  record: (carried: CarriedAccess | null) => AuditRow,
): Promise<{ restoredInto: string; replaced: string | null; applied: string[]; carried: CarriedAccess | null }> {
  const source = path.resolve(file);
  if (!existsSync(source) || !statSync(source).isFile()) throw new Error(`${file}: no such file`);
  const databaseFile = ensureSqliteFile();
  const lock = openLock(databaseFile, 0);
  try {
    try {
      lock.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      if (error instanceof Database.SqliteError && /^SQLITE_(BUSY|LOCKED)/.test(error.code)) {
        throw new Error(
          `A server is running on ${databaseFile} (it holds ${serverLockFile(databaseFile)}). Stop it, then restore; nothing was changed.`,
          { cause: error },
        );
      }
      throw error;
    }
    const replacing = existsSync(databaseFile) && statSync(databaseFile).size > 0;
    // Read first: a database that cannot be read is refused before anything is copied.
    const ended = replacing ? endedAccessIn(databaseFile) : null;
    // The copy is checked, migrated and given the access carried over beside the database, then
    // moved into place in one rename.
    const staging = `${databaseFile}.restoring`;
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(staging + suffix, { force: true });
    copyFileSync(source, staging);
    chmodSync(staging, OWNER_ONLY);
    try {
      const copy = openChecked(staging, file);
      try {
        assertIntact(copy, file);
        const migrations = appliedMigrations(copy, file);
        const unknown = migrations.filter((name) => !knownMigrations.includes(name));
        if (unknown.length > 0) {
          throw new Error(
            `${file} was made by a newer version of Plant Store: it has migrations this code does not know (${unknown.join(', ')}). Restore it with that version; nothing was changed.`,
          );
        }
        await assertSchemaOfMigrations(copy, migrations, file);
      } finally {
        copy.close();
      }
      const { applied } = await applyMigrationsWith(sqliteTools, { databaseUrl: `file:${staging}` });

      // The access carried over and the restore's audit record, in one transaction of the copy's.
      const restored = openUntrusted(staging);
      let carried: CarriedAccess | null;
      try {
        carried = restored.transaction(() => {
          const carriedHere = ended && carryEndedAccess(restored, ended);
          recordRestore(restored, record(carriedHere));
          return carriedHere;
        })();
      } finally {
        restored.close();
      }
      checkpointAndClose(staging);

      let replaced: string | null = null;
      if (replacing) {
        checkpointAndClose(databaseFile);
        replaced = `${databaseFile}.replaced-${timestamp()}`;
        renameSync(databaseFile, replaced);
      }
      for (const suffix of ['-wal', '-shm']) rmSync(databaseFile + suffix, { force: true });
      renameSync(staging, databaseFile);
      return { restoredInto: databaseFile, replaced, applied, carried };
    } catch (error) {
      for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(staging + suffix, { force: true });
      throw error;
    }
  } finally {
    lock.close();
  }
}

export const sqliteMaintenance: MaintenanceStore = {
  holdAsServer,
  integrity,
  backups: {
    supported: true,
    backup,
    restore,
    defaultBackupDir: () => path.join(path.dirname(ensureSqliteFile()), 'backups'),
  },
};
