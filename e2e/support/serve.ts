// The e2e server: a temporary database, migrated as `npm start` migrates, seeded with an admin and
// a staff member, served by the production build (the standalone server): seeded-server.ts. Removed
// again when Playwright stops it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dispatchHold } from '../../test/support/server';
import { startTestProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../../test/support/oidc-provider';
import { serveSeeded } from './seeded-server';
import { E2E_PORT, OIDC_ALLOWED_DOMAIN, OIDC_NAME } from './staff';

// Scheduled backups on, into a folder of the run's own: the first is written as the server starts.
const backups = mkdtempSync(path.join(os.tmpdir(), 'plant-store-e2e-backups-'));

// The store's identity provider: oidc-provider on a free loopback port, with its own sign-in and
// consent pages (test/support/oidc-provider.ts). The server names its own origin (PUBLIC_URL), from
// which the redirect URI registered there is made.
const publicUrl = `http://localhost:${E2E_PORT}`;
const provider = await startTestProvider({ redirectUris: [`${publicUrl}/api/auth/callback/oidc`] });

// The dispatcher leaves an event for 1.5 s before making its deliveries
// (test/support/dispatch-hold.mjs), so the webhooks page always shows a just-sent test event before
// its delivery exists, and must follow it on: a busy machine once showed that moment, which the page
// then left as it was.
await serveSeeded({
  port: String(E2E_PORT),
  hostname: 'localhost',
  nodeFlags: [dispatchHold(1500)],
  env: {
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
  cleanUp: async () => {
    rmSync(backups, { recursive: true, force: true });
    await provider.stop();
  },
});
