// Temporary databases for tests, migrated exactly as `npm start` migrates, on the engine under
// test: SQLite files, or databases created on TEST_DATABASE_URL's PostgreSQL server and dropped.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { applyMigrations } from '../../lib/db/migrate';
import { createTemporaryDatabase, postgresqlServerUrl } from '../../lib/db/engine';
import type { DatabaseEngine } from '../../lib/db/stores';
import { sqliteFilePath } from '../../lib/db/url';
import type { Scope } from '../../lib/auth/scopes';
import { setEnv } from './settings';

export type TestDatabase = {
  engine: DatabaseEngine;
  url: string;
  /** Runs raw SQL on the database behind the app's back (to break it, or to look inside). */
  execute(sql: string): Promise<unknown[]>;
  remove(): Promise<void>;
};

/** The engine this test process runs against (vitest projects set TEST_ENGINE). */
export function testEngine(): DatabaseEngine {
  return process.env.TEST_ENGINE === 'postgresql' ? 'postgresql' : 'sqlite';
}

// int8 as bigint (pg's default is a string), so rows read the same on both engines.
const bigintParser = ((oid: number, format?: string) =>
  oid === 20 ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser;

export async function createTestDatabase(engine: DatabaseEngine = testEngine()): Promise<TestDatabase> {
  // A copy of a database migrated once: migrating took a few tenths of a second of CPU, most of it
  // the migration engine's, and on PostgreSQL a second or more of the server's, for each of the many
  // databases a run makes; a copy is what the migrations would have written. On SQLite the template
  // is this process's; on PostgreSQL the vitest project's (test/support/global-setup.ts, which drops
  // it when the project ends), since a database cannot be dropped as a process exits.
  if (engine === 'sqlite') return copyTestDatabase(await migratedSqliteTemplate());
  const template = providedTemplate();
  if (template) return copyTestDatabase({ engine, url: template, execute: (sql) => executeOn(engine, template, sql), remove: async () => {} });
  return migratedDatabase(engine);
}

/** The vitest project's migrated PostgreSQL template, if this runs in a vitest project that has one. */
function providedTemplate(): string | undefined {
  try {
    return inject('postgresqlTemplateUrl');
  } catch {
    return undefined; // not in a vitest worker: the e2e server, a benchmark
  }
}

/** A new database, migrated exactly as `npm start` migrates. */
export async function migratedDatabase(engine: DatabaseEngine): Promise<TestDatabase> {
  const database = await createTemporaryDatabase(engine);
  try {
    await applyMigrations({ databaseUrl: database.url });
  } catch (error) {
    await database.drop();
    throw error;
  }
  return { engine, url: database.url, execute: (sql) => executeOn(engine, database.url, sql), remove: database.drop };
}

// The SQLite database the others are copies of: made on first use, removed as the process exits.
let sqliteTemplate: Promise<TestDatabase> | undefined;

function migratedSqliteTemplate(): Promise<TestDatabase> {
  if (!sqliteTemplate) {
    sqliteTemplate = migratedDatabase('sqlite');
    sqliteTemplate.then(
      (template) => process.once('exit', () => rmSync(path.dirname(sqliteFilePath(template.url)), { recursive: true, force: true })),
      () => (sqliteTemplate = undefined),
    );
  }
  return sqliteTemplate;
}

/**
 * A second database with exactly the rows of `source` (tokens included, so the same secret works
 * on both): a copy of the SQLite file, or a PostgreSQL database made from it as a template. Nothing
 * may be connected to `source` meanwhile.
 */
export async function copyTestDatabase(source: TestDatabase): Promise<TestDatabase> {
  if (source.engine === 'sqlite') {
    const from = sqliteFilePath(source.url);
    const directory = mkdtempSync(path.join(os.tmpdir(), 'plant-store-copy-'));
    const to = path.join(directory, path.basename(from));
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(from + suffix)) copyFileSync(from + suffix, to + suffix);
    const url = `file:${to}`;
    return { engine: 'sqlite', url, execute: (sql) => executeOn('sqlite', url, sql), remove: async () => rmSync(directory, { recursive: true, force: true }) };
  }
  const template = new URL(source.url).pathname.slice(1);
  const name = `${template.slice(0, 40)}_copy_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgresqlServerUrl() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const url = new URL(source.url);
  url.pathname = `/${name}`;
  return {
    engine: 'postgresql',
    url: url.toString(),
    execute: (sql) => executeOn('postgresql', url.toString(), sql),
    remove: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Runs raw SQL on any database of the engine under test (one the test made itself, say). */
export async function executeOn(engine: DatabaseEngine, url: string, sql: string): Promise<unknown[]> {
  if (engine === 'sqlite') {
    const connection = new Database(sqliteFilePath(url));
    try {
      const statement = connection.prepare(sql);
      // Integers as bigint, as pg gives int8: ids above 2^53 must compare exactly.
      return statement.reader ? statement.safeIntegers(true).all() : (statement.run(), []);
    } finally {
      connection.close();
    }
  }
  const client = new pg.Client({ connectionString: url, types: { getTypeParser: bigintParser } });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A new API token in the database at `url`, made as `npm run token -- create` makes one (the same
 * lib function, recorded as the operator command), in this process: a CLI of its own per token cost
 * half a second of CPU each. The CLI itself is tested in test/cli. Default scopes unless `scopes`
 * are named.
 */
export async function tokenIn(url: string, name = 'test', scopes?: string[]): Promise<{ id: string; token: string }> {
  const { createApiToken } = await import('../../lib/auth/tokens/api-tokens');
  const { OPERATOR_COMMAND } = await import('../../lib/audit/context');
  const { token, summary } = await usingDatabase(url, () => createApiToken({ name, scopes: scopes as Scope[] | undefined }, OPERATOR_COMMAND));
  return { id: summary.id, token };
}

// One database at a time for this process's lib/db: calls of usingDatabase wait for each other.
let pointedElsewhere: Promise<unknown> = Promise.resolve();

/** Runs `work` with this process's lib/db pointed at another database, then back at its own. */
export async function usingDatabase<T>(url: string, work: () => Promise<T>): Promise<T> {
  const turn = pointedElsewhere.then(async () => {
    if (process.env.DATABASE_URL === url) return work();
    const { closeDb } = await import('../../lib/db/engine');
    await closeDb();
    const restore = setEnv({ DATABASE_URL: url });
    try {
      return await work();
    } finally {
      await closeDb();
      restore();
    }
  });
  pointedElsewhere = turn.catch(() => undefined);
  return turn;
}
