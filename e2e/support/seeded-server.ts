// What both e2e servers (serve.ts, serve-mail.ts) are: a temporary SQLite database, migrated as
// `npm start` migrates and seeded with an admin and a staff member, served by the production build
// (the standalone server) with the heap cap production runs with (server/heap-limit.ts). The
// database, and whatever else the caller made for the server, is removed once the server exits,
// and a signal to this process is passed on to it.
import { spawn } from 'node:child_process';
import { HEAP_LIMIT_FLAG } from '../../server/heap-limit';
import { createTestDatabase } from '../../test/support/database';
import { setEnv } from '../../test/support/settings';
import { MEMBER_EMAIL, MEMBER_PASSWORD, STAFF_EMAIL, STAFF_PASSWORD } from './staff';

export type SeededServer = {
  port: string;
  hostname: string;
  /** The server's settings beyond the database, the port and production mode. */
  env: Record<string, string | undefined>;
  /** Node flags before the script (a test preload, say). */
  nodeFlags?: string[];
  /** Removes what the caller made for the server, once it has exited. */
  cleanUp?: () => unknown;
};

export async function serveSeeded({ port, hostname, env, nodeFlags = [], cleanUp }: SeededServer): Promise<void> {
  const database = await createTestDatabase('sqlite');
  setEnv({ DATABASE_URL: database.url, AUTH_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef' });

  // Imported only now: the client reads DATABASE_URL when it opens. Made without SMTP_URL: no message.
  const { createUser } = await import('../../lib/auth/accounts/directory');
  const { db } = await import('../../lib/db/client');
  await createUser({ email: STAFF_EMAIL, role: 'admin', password: STAFF_PASSWORD });
  await createUser({ email: MEMBER_EMAIL, role: 'staff', password: MEMBER_PASSWORD });
  await db().$disconnect();

  const server = spawn(process.execPath, [HEAP_LIMIT_FLAG, ...nodeFlags, '.next/standalone/server.js'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', PORT: port, HOSTNAME: hostname, ...env },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code) => {
    void Promise.resolve()
      .then(cleanUp)
      .finally(() => database.remove())
      .finally(() => process.exit(code ?? 0));
  });
}
