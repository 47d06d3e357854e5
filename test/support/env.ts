// Runs in every test worker before the tests: point lib/db at the shared test database.
import { inject } from 'vitest';

process.env.DATABASE_URL = inject('databaseUrl');
