// Runs in every test worker before the tests: point lib/db at the project's test database.
import { inject } from 'vitest';
import { observeFetch } from './observed';
import { TEST_AUTH_SECRET } from './server';

process.env.TEST_ENGINE = inject('engine');
process.env.DATABASE_URL = inject('databaseUrl');
process.env.AUTH_SECRET = TEST_AUTH_SECRET;
observeFetch();
