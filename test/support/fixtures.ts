// Servers and databases of a test file's own, as vitest fixtures (test.extend), with their cleanup
// built in: whatever a test or file starts is stopped, and whatever it makes is removed, when it
// ends, whether it passed or not. (A project's files share one process, so nothing outlives its file.)
//
//   ownDatabase       a migrated database of the file's own (file-scoped)
//   processDatabase   the same, with this process's lib/db pointed at it until the file ends (after
//                     the servers started on it have stopped): processOnOwnDatabase() as a fixture
//   ownServer         the production server on it, with `ownServerEnv` (file-scoped)
//   ownServerEnv      the settings ownServer starts with: override it with withServerEnv()
//   startOwnServer    starts servers of the test's own, each with its own settings and (unless
//                     given one) its own database; all stopped and removed after the test
//   startFileServer   the same for servers a file's tests share (file-scoped): stopped and
//                     removed when the file ends
//   makeDatabase      makes migrated databases of the test's own, with no server; removed after it
//   makeTempDir       makes folders of the test's own; removed, with what is in them, after it
//   fileTempDir       a folder the file's tests share (file-scoped), removed when the file ends
//
// processOnOwnDatabase() is for files whose rules depend on every row there is (the first account, the
// last admin): it also points this process's lib/db at a database of the file's own. Its database is
// removed in an afterAll hook, which runs before file-scoped fixtures end: a file that also starts
// servers on it takes the processDatabase fixture instead, removed only once they have stopped.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, test as base } from 'vitest';
import { closeDb } from '../../lib/db/engine';
import { createTestDatabase, type TestDatabase } from './database';
import { startServer, type RunningServer, type ServerOptions } from './server';
import { setEnv } from './settings';

export type OwnServerOptions = Omit<ServerOptions, 'databaseUrl'> & {
  /** A database to share (another server's, or this process's own); by default one of the server's own. */
  database?: TestDatabase;
  /** Removes the given database once the server has stopped (a copy made for it); its own always is. */
  removeDatabaseAfter?: boolean;
  /** What to write into the database before the server starts on it (an account, an endpoint). */
  prepare?: (database: TestDatabase) => Promise<unknown>;
};

export type OwnServer = RunningServer & { database: TestDatabase };

export const test = base
  .extend('ownServerEnv', { scope: 'file' }, {} as Record<string, string>)
  .extend('ownDatabase', { scope: 'file' }, async ({}, { onCleanup }) => {
    const database = await createTestDatabase();
    onCleanup(() => database.remove());
    return database;
  })
  // Set up before any server a file starts, so removed only once they have stopped.
  .extend('processDatabase', { scope: 'file' }, async ({}, { onCleanup }) => {
    const database = await createTestDatabase();
    await closeDb();
    const restore = setEnv({ DATABASE_URL: database.url });
    onCleanup(async () => {
      await closeDb();
      restore();
      await database.remove();
    });
    return database;
  })
  .extend('ownServer', { scope: 'file' }, async ({ ownDatabase, ownServerEnv }, { onCleanup }) => {
    const server = await startServer({ databaseUrl: ownDatabase.url, env: ownServerEnv });
    onCleanup(() => server.stop('SIGKILL'));
    return server;
  })
  .extend('startOwnServer', async ({}, { onCleanup }) => serverStarter(onCleanup))
  .extend('startFileServer', { scope: 'file' }, async ({}, { onCleanup }) => serverStarter(onCleanup))
  .extend('makeDatabase', async ({}, { onCleanup }) => {
    const made: TestDatabase[] = [];
    onCleanup(async () => {
      for (const database of made) await database.remove();
    });
    return async () => {
      const database = await createTestDatabase();
      made.push(database);
      return database;
    };
  })
  .extend('makeTempDir', async ({}, { onCleanup }) => {
    const made: string[] = [];
    onCleanup(() => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
    return () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'plant-store-test-'));
      made.push(dir);
      return dir;
    };
  })
  .extend('fileTempDir', { scope: 'file' }, async ({}, { onCleanup }) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'plant-store-test-'));
    onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });

/** Starts servers (each on its own database unless given one), all stopped and their databases removed at `onCleanup`. */
function serverStarter(onCleanup: (cleanup: () => Promise<void>) => void): (options?: OwnServerOptions) => Promise<OwnServer> {
  const started: OwnServer[] = [];
  const made: TestDatabase[] = [];
  onCleanup(async () => {
    await Promise.all(started.map((server) => server.stop('SIGKILL')));
    for (const database of made) await database.remove();
  });
  return async (options = {}) => {
    const { database: given, prepare, removeDatabaseAfter, ...serverOptions } = options;
    if (given && removeDatabaseAfter) made.push(given);
    let database = given;
    if (!database) made.push((database = await createTestDatabase()));
    await prepare?.(database);
    const server = Object.assign(await startServer({ ...serverOptions, databaseUrl: database.url }), { database });
    started.push(server);
    return server;
  };
}

/** `test` with ownServer started with `env`. */
export const withServerEnv = (env: Record<string, string>) => test.extend('ownServerEnv', { scope: 'file' }, env);

/**
 * Gives this test file a database of its own, and points this process's lib/db at it: for rules
 * that depend on every account there is (the first account, the last admin), and for servers of
 * the file's own. The shared database is untouched.
 */
export function processOnOwnDatabase(): { readonly url: string; execute(sql: string): Promise<unknown[]> } {
  let database: TestDatabase | undefined;
  let restore = () => {};
  beforeAll(async () => {
    database = await createTestDatabase();
    await closeDb();
    restore = setEnv({ DATABASE_URL: database.url });
  });
  afterAll(async () => {
    await closeDb();
    restore();
    await database?.remove();
  });
  return {
    get url() {
      return database!.url;
    },
    execute: (sql) => database!.execute(sql),
  };
}
