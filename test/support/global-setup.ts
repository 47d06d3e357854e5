// One production server and database shared by the API tests of a vitest project; the project's
// name starts with the engine (sqlite or postgresql). A `:database` project (the database tests,
// in-process) gets the database alone: it needs no server, so it can run before the build ends.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { DatabaseEngine } from '../../lib/db/stores';
import { createTestDatabase, migratedDatabase, type TestDatabase } from './database';
import { undeclared, type Observed } from './observed';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    engine: DatabaseEngine;
    baseUrl: string;
    databaseUrl: string;
    serverLogFile: string;
    /** The control port of the shared server's test clock (test/support/clock.ts). */
    clockPort: number;
    /** On PostgreSQL, a migrated database the project's test databases are copies of (test/support/database.ts). */
    postgresqlTemplateUrl?: string;
  }
}

export default async function setup(project: TestProject) {
  const engine: DatabaseEngine = project.name.startsWith('postgresql') ? 'postgresql' : 'sqlite';
  // Nothing ever connects to the template: PostgreSQL copies only a database no one is connected to.
  const template: TestDatabase | undefined = engine === 'postgresql' ? await migratedDatabase(engine) : undefined;
  const database = await createTestDatabase(engine).catch(async (error: unknown) => {
    await template?.remove();
    throw error;
  });
  const removeDatabases = async () => {
    await database.remove();
    await template?.remove();
  };
  project.provide('engine', engine);
  project.provide('databaseUrl', database.url);
  if (template) project.provide('postgresqlTemplateUrl', template.url);
  if (project.name.endsWith(':database')) return removeDatabases;
  const server = await startServer({ databaseUrl: database.url }).catch(async (error: unknown) => {
    await removeDatabases();
    throw error;
  });
  const logFile = path.join(os.tmpdir(), `plant-store-${engine}-${process.pid}-server.log`);

  project.provide('baseUrl', server.url);
  project.provide('serverLogFile', logFile);
  project.provide('clockPort', server.clockPort);
  const observedFile = path.join(os.tmpdir(), `plant-store-${engine}-${process.pid}-observed.jsonl`);
  writeFileSync(observedFile, '');
  project.provide('observedFile', observedFile);
  // Tests read the server's log through this file; refresh it as the server writes.
  const refreshLog = () => writeFileSync(logFile, server.output());
  server.child.stdout!.on('data', refreshLog);
  server.child.stderr!.on('data', refreshLog);
  refreshLog();

  return async () => {
    try {
      await checkObservedAgainstDocument(engine, server.url, observedFile);
    } finally {
      rmSync(observedFile, { force: true });
      await server.stop();
      await removeDatabases();
    }
  };
}

/**
 * Every answer the tests saw must be one /openapi.json declares for its operation: a status the
 * servers give that the document lacks fails the run, whichever test provoked it.
 */
async function checkObservedAgainstDocument(engine: DatabaseEngine, baseUrl: string, observedFile: string) {
  const observed = readFileSync(observedFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Observed);
  const document = await (await fetch(`${baseUrl}/openapi.json`)).json();
  const missing = undeclared(document, observed);
  if (missing.length > 0) {
    // Vitest prints an error thrown by a teardown ("error during close") but still exits 0.
    process.exitCode = 1;
    throw new Error(`[${engine}] answers the tests observed that /openapi.json does not declare (method, path, status):\n  ${missing.join('\n  ')}`);
  }
  process.stdout.write(`[${engine}] ${observed.length} answers observed; /openapi.json declares each (operation, status)\n`);
}
