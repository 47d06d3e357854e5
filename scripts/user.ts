// npm run user -- create --email EMAIL [--role admin|staff] [--password-stdin | --password P]
//                 | list | disable EMAIL | enable EMAIL | set-role EMAIL ROLE | 2fa reset --email EMAIL
import { parseArgs } from 'node:util';
import { OPERATOR_COMMAND } from '../lib/audit/context';
import { AccountError, disableAccount, enableAccount, setAccountRole } from '../lib/auth/accounts/changes';
import { PasswordRuleError } from '../lib/auth/passwords/policy';
import { isRole } from '../lib/auth/scopes';
import { createUser, findAccountByEmail, listAccounts, StaffEmail } from '../lib/auth/accounts/directory';
import { operatorCommand } from '../lib/shared/operator-commands';
import { describeIssues } from '../lib/shared/validation';
import { removeSecondFactor } from '../lib/auth/second-factor/factors';
import { formatDate, passwordFrom, printable, printTable, runCommands, UsageError } from './cli';

const user = (args: string) => operatorCommand('user', args);
const USAGE = `usage:
  ${user('create --email EMAIL [--role admin|staff] [--password-stdin]')}
      (asks for the password unless --password-stdin; --password P works, with a warning)
  ${user('list')}
  ${user('disable EMAIL')}
  ${user('enable EMAIL')}
  ${user('set-role EMAIL admin|staff')}
  ${user('2fa reset --email EMAIL')}
      (removes the account's second factor and ends its sessions)`;

async function create(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
  });
  if (!values.email) throw new UsageError('--email is required');
  const email = StaffEmail.safeParse(values.email.trim());
  if (!email.success) throw new UsageError(`--email ${describeIssues(email.error.issues)}`);
  if (values.role !== undefined && !isRole(values.role)) throw new UsageError('--role must be admin or staff');
  if (await findAccountByEmail(email.data)) throw new Error(`An account with the email ${email.data} already exists`);
  const password = await passwordFrom(values);
  try {
    const { account } = await createUser({ email: email.data, role: values.role, password });
    const firstNote = values.role === 'staff' && account.role === 'admin' ? ' (the first account is always an admin)' : '';
    process.stdout.write(`Created ${account.role} account ${printable(account.email)} (${account.id})${firstNote}. Sign in at /login.\n`);
  } catch (error) {
    if (error instanceof PasswordRuleError) throw new UsageError(`the password ${error.rule}`);
    throw error;
  }
}

async function list() {
  const accounts = await listAccounts();
  if (accounts.length === 0) {
    process.stdout.write(`No staff accounts yet. Create one with: ${user('create --email EMAIL --role admin')}\n`);
    return;
  }
  printTable(
    ['EMAIL', 'ROLE', 'STATUS', 'LAST SIGN-IN (UTC)', 'CREATED', 'ID'],
    accounts.map((account) => [
      account.email,
      account.role,
      account.disabled ? 'disabled' : account.hasPassword ? 'active' : 'no password yet',
      formatDate(account.lastSignInAt),
      formatDate(account.createdAt),
      account.id,
    ]),
  );
}

/** The account an EMAIL argument names, for the commands that change one. */
async function accountNamed(args: string[], extra: number, usage: string) {
  if (args.length !== 1 + extra) throw new UsageError(usage);
  const account = await findAccountByEmail(args[0]);
  if (!account) throw new Error(`No staff account has the email ${args[0]}`);
  return account;
}

async function change(work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    if (error instanceof AccountError) throw new Error(error.message);
    throw error;
  }
}

/** `2fa reset --email EMAIL`: for an operator whose admins are locked out of their second factor. */
async function secondFactor(args: string[]) {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'reset') throw new UsageError('2fa takes: reset --email EMAIL');
  const { values, positionals } = parseArgs({ args: rest, options: { email: { type: 'string' } }, allowPositionals: true });
  if (!values.email || positionals.length > 0) throw new UsageError('2fa reset takes --email EMAIL');
  const account = await findAccountByEmail(values.email);
  if (!account) throw new Error(`No staff account has the email ${printable(values.email)}`);
  if (!(await removeSecondFactor(account.id, 'reset', OPERATOR_COMMAND))) {
    process.stdout.write(`${printable(account.email)} has no second factor: nothing to reset.\n`);
    return;
  }
  process.stdout.write(`Reset the second factor of ${printable(account.email)}: signed out everywhere; they sign in with their password and set up a new one.\n`);
}

runCommands(USAGE, {
  '2fa': secondFactor,
  create,
  list,
  async disable(args) {
    const account = await accountNamed(args, 0, 'disable takes one EMAIL');
    await change(() => disableAccount(account.id, OPERATOR_COMMAND));
    process.stdout.write(`Disabled ${account.email}: signed out everywhere, and their API tokens are refused until enabled.\n`);
  },
  async enable(args) {
    const account = await accountNamed(args, 0, 'enable takes one EMAIL');
    await change(() => enableAccount(account.id, OPERATOR_COMMAND));
    process.stdout.write(`Enabled ${account.email}.\n`);
  },
  async 'set-role'(args) {
    const account = await accountNamed(args, 1, 'set-role takes an EMAIL and a ROLE (admin or staff)');
    const role = args[1];
    if (!isRole(role)) throw new UsageError('ROLE must be admin or staff');
    await change(() => setAccountRole(account.id, role, OPERATOR_COMMAND));
    process.stdout.write(`${account.email} is now ${role === 'admin' ? 'an admin' : 'staff'}; their sessions have ended.\n`);
  },
});
