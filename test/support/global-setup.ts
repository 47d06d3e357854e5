// One production server and database shared by the API tests of a vitest project; the project's
// name is the engine (sqlite or postgresql).
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import type { DatabaseEngine } from '../../lib/db/url';
import { createTestDatabase } from './database';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    engine: DatabaseEngine;
    baseUrl: string;
    databaseUrl: string;
    serverLogFile: string;
  }
}

export default async function setup(project: TestProject) {
  const engine: DatabaseEngine = project.name === 'postgresql' ? 'postgresql' : 'sqlite';
  const database = await createTestDatabase(engine);
  const server = await startServer({ databaseUrl: database.url }).catch(async (error: unknown) => {
    await database.remove();
    throw error;
  });
  const logFile = path.join(os.tmpdir(), `plant-store-${engine}-${process.pid}-server.log`);

  project.provide('engine', engine);
  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', database.url);
  project.provide('serverLogFile', logFile);
  // Tests read the server's log through this file; refresh it as the server writes.
  const refreshLog = () => writeFileSync(logFile, server.output());
  server.child.stdout!.on('data', refreshLog);
  server.child.stderr!.on('data', refreshLog);
  refreshLog();

  return async () => {
    await server.stop();
    await database.remove();
  };
}
