// npm run token -- create --name NAME [--scopes S,...] [--expires-in DAYS] [--user EMAIL] | list | revoke ID
import { parseArgs } from 'node:util';
import { OPERATOR_COMMAND } from '../lib/audit/context';
import { createApiToken, listApiTokens, revokeApiToken, TokenScopeError } from '../lib/auth/tokens/api-tokens';
import { DEFAULT_TOKEN_SCOPES, isScope, SCOPES, type Scope } from '../lib/auth/scopes';
import { findUserByEmail } from '../lib/auth/accounts/directory';
import { operatorCommand } from '../lib/shared/operator-commands';
import { describeIssues } from '../lib/shared/validation';
import { TokenName } from '../lib/schemas/token';
import { formatDate, printable, printTable, runCommands, UsageError } from './cli';

const token = (args: string) => operatorCommand('token', args);
const USAGE = `usage:
  ${token('create --name NAME [--scopes SCOPE,...] [--expires-in DAYS] [--user EMAIL]')}
      scopes: ${SCOPES.join(', ')} (default ${DEFAULT_TOKEN_SCOPES.join(',')})
  ${token('list')}
  ${token('revoke ID')}`;

function scopesFrom(text: string | undefined): readonly Scope[] {
  if (text === undefined) return DEFAULT_TOKEN_SCOPES;
  const named = text.split(',').map((scope) => scope.trim()).filter(Boolean);
  const unknown = named.filter((scope) => !isScope(scope));
  if (unknown.length > 0) throw new UsageError(`--scopes: unknown scope ${unknown.join(', ')} (known: ${SCOPES.join(', ')})`);
  if (named.length === 0) throw new UsageError('--scopes needs at least one scope');
  return named.filter(isScope);
}

async function create(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { name: { type: 'string' }, scopes: { type: 'string' }, 'expires-in': { type: 'string' }, user: { type: 'string' } },
  });
  if (values.name === undefined) throw new UsageError('--name is required');
  const parsed = TokenName.safeParse(values.name);
  if (!parsed.success) throw new UsageError(`--name ${describeIssues(parsed.error.issues)}`);
  const name = parsed.data;
  const scopes = scopesFrom(values.scopes);
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
  let created;
  try {
    created = await createApiToken({ name, scopes, expiresInDays, createdById }, OPERATOR_COMMAND);
  } catch (error) {
    if (error instanceof TokenScopeError) throw new UsageError(`--scopes: ${error.message}`);
    throw error;
  }
  const { token, summary } = created;
  const expiry = summary.expiresAt ? `expires ${formatDate(summary.expiresAt)} UTC` : 'never expires';
  process.stdout.write(`Created API token ${summary.id} "${printable(summary.name)}" (${expiry}).\n`);
  process.stdout.write(`Scopes: ${summary.scopes.join(',')}\n`);
  process.stdout.write('Copy it now: it is not stored and will not be shown again.\n');
  process.stdout.write(`${token}\n`);
}

async function list() {
  const tokens = await listApiTokens();
  if (tokens.length === 0) {
    process.stdout.write(`No API tokens yet. Create one with: ${token('create --name NAME')}\n`);
    return;
  }
  const now = new Date();
  printTable(
    ['ID', 'NAME', 'PREFIX', 'SCOPES', 'OWNER', 'CREATED (UTC)', 'EXPIRES', 'LAST USED', 'STATUS'],
    tokens.map((token) => [
      token.id,
      token.name,
      `${token.prefix}…`,
      token.scopes.join(','),
      token.ownerEmail ?? '-',
      formatDate(token.createdAt),
      formatDate(token.expiresAt),
      formatDate(token.lastUsedAt),
      token.revokedAt ? 'revoked' : token.expiresAt && token.expiresAt <= now ? 'expired' : 'active',
    ]),
  );
}

async function revoke(args: string[]) {
  const [id, ...rest] = args;
  if (!id || rest.length > 0) throw new UsageError(`revoke takes one token ID (see ${token('list')})`);
  if (!(await revokeApiToken(id, OPERATOR_COMMAND))) throw new Error(`No active API token has the ID ${id}`);
  process.stdout.write(`Revoked API token ${id}. Requests using it are refused from now on.\n`);
}

runCommands(USAGE, { create, list, revoke });
