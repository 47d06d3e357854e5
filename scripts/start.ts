// npm start: apply pending migrations, make sure a production build exists, then serve it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { createRequire } from 'node:module';
import { resolveAuthSecret } from '../lib/auth/secret';
import { applyMigrations } from '../lib/db/migrate';
import { databaseUrl } from '../lib/db/url';
import { countUsers } from '../lib/auth/users';
import { db } from '../lib/db/client';

const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');
const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';

  const { applied } = await applyMigrations({ databaseUrl: databaseUrl() });
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');

  const auth = resolveAuthSecret();
  if (auth.source === 'generated') say(`generated AUTH_SECRET and kept it in ${auth.file} (set AUTH_SECRET to use your own)`);
  process.env.AUTH_SECRET = auth.secret;

  if ((await countUsers()) === 0) {
    say('no staff account yet: create one with  npm run user -- create --email you@example.com --password ...');
  }
  await db().$disconnect();

  if (!existsSync('.next/BUILD_ID')) {
    say('no production build yet: running next build (once; rerun `npm run build` after changing the code)');
    const build = spawnSync(process.execPath, [nextBin, 'build'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  const args = [nextBin, 'start', '--port', process.env.PORT || '3000'];
  if (process.env.HOSTNAME) args.push('--hostname', process.env.HOSTNAME);
  const server = spawn(process.execPath, args, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 1)));
}

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
