// npm run db:migrate: apply pending migrations to DATABASE_URL (what `prisma migrate deploy` does),
// then seal the webhook secrets as npm start does (where a build step migrates, as on Vercel, no
// start runs), when AUTH_SECRET is at hand.
import { resolveAuthSecret } from '../lib/auth/sessions/secret';
import { applyMigrations } from '../lib/db/migrate';
import { databaseUrl, engineTools } from '../lib/db/engine';
import { operatorCommand } from '../lib/shared/operator-commands';
import { rereadSettings, settings } from '../lib/settings';
import { sealedReport, sealStoredSecrets } from '../lib/webhooks/secrets-at-rest';
import { runCli } from './cli';

runCli(`usage: ${operatorCommand('db:migrate')}`, async () => {
  const { applied, folded } = await applyMigrations({ databaseUrl: databaseUrl() });
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  if (folded) process.stdout.write(`folded ${folded} plant names for search\n`);
  // Where the engine keeps the secret beside the database (SQLite), it is that file's (made now if
  // there is none, as the start would).
  if (engineTools().authSecretFile(databaseUrl()) === null && !settings().AUTH_SECRET) {
    process.stdout.write(
      `webhook secrets: not checked, no AUTH_SECRET here (${operatorCommand('start')}, or this command with AUTH_SECRET set, encrypts any stored unencrypted)\n`,
    );
    return;
  }
  process.env.AUTH_SECRET = resolveAuthSecret().secret;
  rereadSettings();
  const secrets = sealedReport(await sealStoredSecrets(databaseUrl()));
  if (secrets.line) process.stdout.write(`${secrets.line}\n`);
  if (secrets.warning) process.stderr.write(`warning: ${secrets.warning}\n`);
});
