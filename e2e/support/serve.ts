// The e2e server: a temporary database, migrated as `npm start` migrates, seeded with an admin and
// a staff member, served by the production build (the standalone server). Removed again when
// Playwright stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HEAP_LIMIT_FLAG } from '../../server/heap-limit';
import { createTestDatabase } from '../../test/support/database';
import { dispatchHold } from '../../test/support/server';
import { startTestProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../../test/support/oidc-provider';
import { setEnv } from '../../test/support/settings';
import { E2E_PORT, MEMBER_EMAIL, MEMBER_PASSWORD, OIDC_ALLOWED_DOMAIN, OIDC_NAME, STAFF_EMAIL, STAFF_PASSWORD } from './staff';

const database = await createTestDatabase('sqlite');
setEnv({ DATABASE_URL: database.url, AUTH_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef' });

// Imported only now: the client reads DATABASE_URL when it opens.
const { createUser } = await import('../../lib/auth/accounts/directory');
const { db } = await import('../../lib/db/client');
await createUser({ email: STAFF_EMAIL, role: 'admin', password: STAFF_PASSWORD });
await createUser({ email: MEMBER_EMAIL, role: 'staff', password: MEMBER_PASSWORD });
await db().$disconnect();
// Scheduled backups on, into a folder of the run's own: the first is written as the server starts.
const backups = mkdtempSync(path.join(os.tmpdir(), 'plant-store-e2e-backups-'));

// The store's identity provider: oidc-provider on a free loopback port, with its own sign-in and
// consent pages (test/support/oidc-provider.ts). The server names its own origin (PUBLIC_URL), from
// which the redirect URI registered there is made.
const publicUrl = `http://localhost:${E2E_PORT}`;
const provider = await startTestProvider({ redirectUris: [`${publicUrl}/api/auth/callback/oidc`] });

// With the heap cap production runs with (server/heap-limit.ts). The dispatcher leaves an event for
// 1.5 s before making its deliveries (test/support/dispatch-hold.mjs), so the webhooks page always
// shows a just-sent test event before its delivery exists, and must follow it on: a busy machine
// once showed that moment, which the page then left as it was.
const server = spawn(process.execPath, [HEAP_LIMIT_FLAG, dispatchHold(1500), '.next/standalone/server.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: String(E2E_PORT),
    HOSTNAME: 'localhost',
    // The journeys' webhook receiver listens on this machine.
    WEBHOOK_ALLOW_PRIVATE_URLS: '1',
    // So a journey can sign in from a network of its own (X-Forwarded-For), and use up that
    // network's allowance of password attempts without touching the other journeys'.
    TRUST_PROXY: '1',
    BACKUP_DIR: backups,
    PUBLIC_URL: publicUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT_ID,
    OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
    OIDC_NAME,
    OIDC_ALLOWED_DOMAINS: OIDC_ALLOWED_DOMAIN,
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  rmSync(backups, { recursive: true, force: true });
  void provider.stop();
  void database.remove().finally(() => process.exit(code ?? 0));
});
