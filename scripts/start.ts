// npm start's steps, run by scripts/start.mjs from the bundle npm run build makes of this file:
// apply pending migrations, then serve the build with the standalone server
// (.next/standalone/server.js), as the Docker image does.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { auditRetentionDays } from '../lib/audit/retention-config';
import { backupSettings } from '../lib/backups/config';
import { resolveAuthSecret } from '../lib/auth/sessions/secret';
import { applyMigrations } from '../lib/db/migrate';
import { sqliteSynchronous } from '../lib/db/durability';
import { databaseEngine, databaseUrl, sqliteFilePath } from '../lib/db/url';
import { configuredPublicOrigin } from '../lib/http/origin';
import { authFailuresPerMinute, passwordAttemptsPerMinute, passwordHashConcurrency, rateLimitPerMinute } from '../lib/shared/rate-limit-config';
import { retrySchedule } from '../lib/webhooks/config';
import { trustedProxyHops } from '../server/forwarded-headers.mjs';
import { bodyTimeoutMs } from '../server/request-limits.mjs';
import { STANDALONE_SERVER } from './paths.mjs';
import { serverNodeOptions } from './server-node-options.mjs';

const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';

  // Malformed settings are refused now, not on the first request.
  rateLimitPerMinute();
  authFailuresPerMinute();
  passwordAttemptsPerMinute();
  passwordHashConcurrency();
  trustedProxyHops();
  bodyTimeoutMs();
  configuredPublicOrigin();
  retrySchedule();
  auditRetentionDays();
  backupSettings();
  sqliteSynchronous();
  // The standalone server runs in its own folder, so a relative SQLite path is made absolute here.
  if (databaseEngine() === 'sqlite') process.env.DATABASE_URL = `file:${sqliteFilePath()}`;

  const { applied, folded } = await applyMigrations({ databaseUrl: databaseUrl() });
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
  if (folded) say(`folded ${folded} plant names for search`);

  const auth = resolveAuthSecret();
  if (auth.source === 'generated') say(`generated AUTH_SECRET and kept it in ${auth.file} (set AUTH_SECRET to use your own)`);
  process.env.AUTH_SECRET = auth.secret;

  // server.js listens on PORT and HOSTNAME (the address to bind; all interfaces unless set).
  const server = spawn(process.execPath, [STANDALONE_SERVER], {
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_OPTIONS: serverNodeOptions(process.env.NODE_OPTIONS),
      PORT: process.env.PORT || '3000',
      HOSTNAME: process.env.HOSTNAME || '0.0.0.0',
    },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1)));
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
