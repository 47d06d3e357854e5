// A second e2e server, for the journeys of email (e2e/mail.spec.ts): like serve.ts, a temporary
// database seeded with an admin and a staff member and the production build, but sending email
// through the journey's SMTP server (MAIL_E2E_SMTP_URL) and listening on MAIL_E2E_PORT. Its links
// name http://localhost:<port> (PUBLIC_URL). Removed again when it is stopped.
import { spawn } from 'node:child_process';
import { HEAP_LIMIT_FLAG } from '../../server/heap-limit';
import { createTestDatabase } from '../../test/support/database';
import { setEnv } from '../../test/support/settings';
import { MEMBER_EMAIL, MEMBER_PASSWORD, STAFF_EMAIL, STAFF_PASSWORD } from './staff';

const port = process.env.MAIL_E2E_PORT!;
const database = await createTestDatabase('sqlite');
setEnv({ DATABASE_URL: database.url, AUTH_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef' });

// Imported only now: the client reads DATABASE_URL when it opens. Made without SMTP_URL: no message.
const { createUser } = await import('../../lib/auth/accounts/directory');
const { db } = await import('../../lib/db/client');
await createUser({ email: STAFF_EMAIL, role: 'admin', password: STAFF_PASSWORD });
await createUser({ email: MEMBER_EMAIL, role: 'staff', password: MEMBER_PASSWORD });
await db().$disconnect();

const server = spawn(process.execPath, [HEAP_LIMIT_FLAG, '.next/standalone/server.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    PORT: port,
    HOSTNAME: 'localhost',
    PUBLIC_URL: `http://localhost:${port}`,
    SMTP_URL: process.env.MAIL_E2E_SMTP_URL,
    MAIL_FROM: 'Plant Store <plants@example.com>',
    STORE_NAME: 'The Greenhouse',
    // A message the SMTP server did not take is tried again a second later.
    MAIL_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s',
    // So a journey can come from a network of its own (X-Forwarded-For).
    TRUST_PROXY: '1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  void database.remove().finally(() => process.exit(code ?? 0));
});
