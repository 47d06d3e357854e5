// npm start's steps, in one process: the build bundles this file into .next/standalone/start.mjs,
// which the Docker image runs directly and npm start (scripts/start.mjs) imports. It applies pending
// migrations, then loads the standalone server (.next/standalone/server.js) into this same process:
// no child process, so a signal reaches the server itself, and its memory is counted once.
// First: V8 flags that must be in force before the migration engine (WebAssembly) is compiled, and
// before starting allocates (server/v8-flags.ts).
import '../server/v8-flags';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveAuthSecret } from '../lib/auth/sessions/secret';
import { applyMigrations } from '../lib/db/migrate';
import { databaseUrl, engineTools } from '../lib/db/engine';
import { checkSettings, rereadSettings } from '../lib/settings';
import { sealedReport, sealStoredSecrets } from '../lib/webhooks/secrets-at-rest';

const say = (line: string) => process.stdout.write(`[start] ${line}\n`);

async function main() {
  process.env.NEXT_TELEMETRY_DISABLED ??= '1';

  // Malformed settings, and a secret too short to keep sessions safe, are refused now, every one of
  // them at once, not on the first request (lib/settings).
  checkSettings();
  // The standalone server runs in its own folder, so a relative SQLite path is made absolute here.
  process.env.DATABASE_URL = engineTools().absoluteUrl(databaseUrl());

  const { applied, folded } = await applyMigrations({ databaseUrl: databaseUrl() });
  say(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database is up to date');
  if (folded) say(`folded ${folded} plant names for search`);

  const auth = resolveAuthSecret();
  if (auth.source === 'generated') say(`generated AUTH_SECRET and kept it in ${auth.file} (set AUTH_SECRET to use your own)`);
  process.env.AUTH_SECRET = auth.secret;

  // Webhook secrets stored as they are (by a version before their encryption, or in a restored
  // backup of one), or under AUTH_SECRET_PREVIOUS, are sealed under AUTH_SECRET.
  const secrets = sealedReport(await sealStoredSecrets(databaseUrl()));
  if (secrets.line) say(secrets.line);
  if (secrets.warning) process.stderr.write(`[start] warning: ${secrets.warning}\n`);

  // server.js listens on PORT (0: any free port, which its `listening` line names) and HOSTNAME
  // (the address to bind; all interfaces unless set), and handles SIGTERM and SIGINT itself. It
  // sits beside this bundle; a path esbuild leaves alone.
  process.env.PORT ||= '3000';
  process.env.HOSTNAME ||= '0.0.0.0';
  // The server, loaded into this process next, reads the settings again, with what was set above
  // (until now they were as given: a relative SQLite path names the same file from here).
  rereadSettings();
  const server = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.js');
  await import(pathToFileURL(server).href);
}

main().catch((error: unknown) => {
  // One line each (a SettingsError has one for every setting refused).
  for (const line of (error instanceof Error ? error.message : String(error)).split('\n')) process.stderr.write(`[start] ${line}\n`);
  process.exit(1);
});
