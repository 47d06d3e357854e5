// The e2e server: a temporary database, migrated as `npm start` migrates, seeded with one staff
// account, served by the production build. Removed again when Playwright stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { E2E_PORT, STAFF_EMAIL, STAFF_PASSWORD } from './staff';

const directory = mkdtempSync(path.join(os.tmpdir(), 'plant-store-e2e-'));
process.env.DATABASE_URL = `file:${path.join(directory, 'plants.db')}`;
process.env.AUTH_SECRET = 'e2e-secret-0123456789abcdef0123456789abcdef';

const { applyMigrations } = await import('../../lib/db/migrate');
const { createUser } = await import('../../lib/auth/users');
const { db } = await import('../../lib/db/client');
await applyMigrations({ databaseUrl: process.env.DATABASE_URL });
await createUser(STAFF_EMAIL, STAFF_PASSWORD);
await db().$disconnect();

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const server = spawn(process.execPath, [nextBin, 'start', '--port', String(E2E_PORT)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
});
const cleanUp = () => rmSync(directory, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  cleanUp();
  process.exit(code ?? 0);
});
