// npm start: apply pending migrations, make sure a production build exists, then serve it with
// the standalone server (.next/standalone/server.js), as the Docker image does.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { resolveAuthSecret } from '../lib/auth/secret';
import { applyMigrations } from '../lib/db/migrate';
import { databaseEngine, databaseUrl, sqliteFilePath } from '../lib/db/url';
import { rateLimitPerMinute } from '../lib/http/rate-limit';
import { STANDALONE_SERVER, build } from './build.mjs';
import { countUsers } from '../lib/auth/users';
import { db } from '../lib/db/client';

const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';

  rateLimitPerMinute(); // refuses a malformed RATE_LIMIT_PER_MINUTE now, not on the first request
  // The standalone server runs in its own folder, so a relative SQLite path is made absolute here.
  if (databaseEngine() === 'sqlite') process.env.DATABASE_URL = `file:${sqliteFilePath()}`;

  const { applied } = await applyMigrations({ databaseUrl: databaseUrl() });
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');

  const auth = resolveAuthSecret();
  if (auth.source === 'generated') say(`generated AUTH_SECRET and kept it in ${auth.file} (set AUTH_SECRET to use your own)`);
  process.env.AUTH_SECRET = auth.secret;

  if ((await countUsers()) === 0) {
    say('no staff account yet: create one with  npm run user -- create --email you@example.com --password ...');
  }
  await db().$disconnect();

  if (!existsSync(STANDALONE_SERVER)) {
    say('no production build yet: running npm run build (once; rerun it after changing the code)');
    const status = build();
    if (status !== 0) process.exit(status);
  }

  // server.js listens on PORT and HOSTNAME (the address to bind; all interfaces unless set).
  const server = spawn(process.execPath, [STANDALONE_SERVER], {
    stdio: 'inherit',
    env: { ...process.env, PORT: process.env.PORT || '3000', HOSTNAME: process.env.HOSTNAME || '0.0.0.0' },
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1)));
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
