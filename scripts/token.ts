// npm run token -- create --name NAME [--expires-in DAYS] [--user EMAIL] | list | revoke ID
import { parseArgs } from 'node:util';
import { createApiToken, listApiTokens, revokeApiToken } from '../lib/auth/api-tokens';
import { findUserByEmail } from '../lib/auth/users';
import { formatDate, runCli, UsageError } from './cli';

const USAGE = `usage:
  npm run token -- create --name NAME [--expires-in DAYS] [--user EMAIL]
  npm run token -- list
  npm run token -- revoke ID`;

async function create(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, 'expires-in': { type: 'string' }, user: { type: 'string' } },
  });
  const name = values.name?.trim();
  if (!name) throw new UsageError('--name is required');
  if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
  let expiresInDays: number | undefined;
  if (values['expires-in'] !== undefined) {
    expiresInDays = Number(values['expires-in']);
    if (!/^\d+$/.test(values['expires-in']) || expiresInDays < 1 || expiresInDays > 3650) {
      throw new UsageError('--expires-in must be a whole number of days from 1 to 3650');
    }
  }
  let createdById: string | null = null;
  if (values.user) {
    const user = await findUserByEmail(values.user);
    if (!user) throw new Error(`No staff account has the email ${values.user}`);
    createdById = user.id;
  }
  const { token, summary } = await createApiToken({ name, expiresInDays, createdById });
  const expiry = summary.expiresAt ? `expires ${formatDate(summary.expiresAt)} UTC` : 'never expires';
  process.stdout.write(`Created API token ${summary.id} "${summary.name}" (${expiry}).\n`);
  process.stdout.write('Copy it now: it is not stored and will not be shown again.\n');
  process.stdout.write(`${token}\n`);
}

async function list() {
  const tokens = await listApiTokens();
  if (tokens.length === 0) {
    process.stdout.write('No API tokens yet. Create one with: npm run token -- create --name NAME\n');
    return;
  }
  const now = new Date();
  const rows = tokens.map((token) => [
    token.id,
    token.name,
    `${token.prefix}…`,
    formatDate(token.createdAt),
    formatDate(token.expiresAt),
    formatDate(token.lastUsedAt),
    token.revokedAt ? 'revoked' : token.expiresAt && token.expiresAt <= now ? 'expired' : 'active',
  ]);
  const header = ['ID', 'NAME', 'PREFIX', 'CREATED (UTC)', 'EXPIRES', 'LAST USED', 'STATUS'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  for (const row of [header, ...rows]) {
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()}\n`);
  }
}

async function revoke(args: string[]) {
  const [id, ...rest] = args;
  if (!id || rest.length > 0) throw new UsageError('revoke takes one token ID (see npm run token -- list)');
  if (!(await revokeApiToken(id))) throw new Error(`No active API token has the ID ${id}`);
  process.stdout.write(`Revoked API token ${id}. Requests using it are refused from now on.\n`);
}

runCli(USAGE, async () => {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'create':
      return create(args);
    case 'list':
      return list();
    case 'revoke':
      return revoke(args);
    default:
      throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
  }
});
