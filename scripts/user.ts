// npm run user -- create --email E --password P | list
import { parseArgs } from 'node:util';
import { createUser, StaffEmail, StaffPassword } from '../lib/auth/users';
import { db } from '../lib/db/client';
import { describeIssues } from '../lib/http/validation';
import { formatDate, runCli, UsageError } from './cli';

const USAGE = `usage:
  npm run user -- create --email EMAIL --password PASSWORD
  npm run user -- list`;

async function create(args: string[]) {
  const { values } = parseArgs({ args, options: { email: { type: 'string' }, password: { type: 'string' } } });
  if (!values.email) throw new UsageError('--email is required');
  if (!values.password) throw new UsageError('--password is required');
  const email = StaffEmail.safeParse(values.email.trim());
  if (!email.success) throw new UsageError(`--email ${describeIssues(email.error.issues)}`);
  const password = StaffPassword.safeParse(values.password);
  if (!password.success) throw new UsageError(`--password ${describeIssues(password.error.issues)}`);
  const user = await createUser(email.data, password.data);
  process.stdout.write(`Created staff account ${user.email} (${user.id}). Sign in at /login.\n`);
}

async function list() {
  const users = await db().user.findMany({ orderBy: { createdAt: 'asc' }, select: { id: true, email: true, createdAt: true } });
  if (users.length === 0) process.stdout.write('No staff accounts yet.\n');
  for (const user of users) process.stdout.write(`${user.id}  ${user.email}  ${formatDate(user.createdAt)}\n`);
}

runCli(USAGE, async () => {
  const [command, ...args] = process.argv.slice(2);
  if (command === 'create') return create(args);
  if (command === 'list') return list();
  throw new UsageError(command ? `unknown command "${command}"` : 'a command is required');
});
