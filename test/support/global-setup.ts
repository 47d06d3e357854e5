// One production server and database shared by the API tests.
import type { TestProject } from 'vitest/node';
import { createTestDatabase } from './database';
import { startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    serverLogFile: string;
  }
}

export default async function setup(project: TestProject) {
  const database = await createTestDatabase();
  const server = await startServer({ databaseUrl: database.url });
  const { writeFileSync } = await import('node:fs');
  const logFile = database.file.replace(/plants\.db$/, 'server.log');

  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', database.url);
  project.provide('serverLogFile', logFile);
  // Tests read the server's log through this file; refresh it as the server writes.
  server.child.stdout!.on('data', () => writeFileSync(logFile, server.output()));
  server.child.stderr!.on('data', () => writeFileSync(logFile, server.output()));
  writeFileSync(logFile, server.output());

  return async () => {
    await server.stop();
    database.remove();
  };
}
