// npm run db:migrate: apply pending migrations to DATABASE_URL (what `prisma migrate deploy` does).
import { applyMigrations } from '../lib/db/migrate';
import { databaseUrl } from '../lib/db/url';
import { runCli } from './cli';

runCli('usage: npm run db:migrate', async () => {
  const { applied, folded } = await applyMigrations({ databaseUrl: databaseUrl() });
  process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n');
  if (folded) process.stdout.write(`folded ${folded} plant names for search\n`);
});
