// Runs before every test file: point lib/db at the project's test database. The files of a
// project share one process, so a file that pointed it elsewhere, or a project before this one,
// leaves connections that are closed here first.
import { inject } from 'vitest';
import { closeDb } from '../../lib/db/engine';
import { observeFetch } from './observed';
import { TEST_AUTH_SECRET } from './server';
import { setEnv } from './settings';

if (process.env.DATABASE_URL !== inject('databaseUrl')) await closeDb();
process.env.TEST_ENGINE = inject('engine');
setEnv({ DATABASE_URL: inject('databaseUrl'), AUTH_SECRET: TEST_AUTH_SECRET });
observeFetch();
