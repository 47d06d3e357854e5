// The operator commands, run as an operator runs them, against the shared test database.
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { api, expectError } from '../support/api';

function run(script: 'token' | 'user', ...args: string[]) {
  const result = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', `scripts/${script}.ts`, ...args], {
    env: { ...process.env, DATABASE_URL: inject('databaseUrl') },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run token', () => {
  it('creates a token shown once on the last line, lists it without its secret, and revokes it', async () => {
    const created = run('token', 'create', '--name', 'ci deploy', '--expires-in', '30');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const token = lines.at(-1)!;
    expect(token).toMatch(/^pst_[0-9A-Za-z]{49}$/);
    expect(created.stdout).toMatch(/Created API token (tok_\w+) "ci deploy" \(expires \d{4}-\d\d-\d\d/);
    const id = /Created API token (tok_\w+)/.exec(created.stdout)![1];

    expect((await api('/plants', { token })).status).toBe(200);

    const listed = run('token', 'list');
    expect(listed.status).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toContain('ci deploy');
    expect(row).toContain(`${token.slice(0, 12)}…`);
    expect(row).toMatch(/active$/);
    expect(listed.stdout).not.toContain(token);

    const revoked = run('token', 'revoke', id);
    expect(revoked.status, revoked.stderr).toBe(0);
    expectError(await api('/plants', { token }), 401, 40104);
    expect(run('token', 'list').stdout.split('\n').find((line) => line.startsWith(id))).toMatch(/revoked$/);
  });

  it.each([
    [['create'], 2, '--name is required'],
    [['create', '--name', 'x', '--expires-in', 'soon'], 2, '--expires-in must be a whole number of days'],
    [['create', '--name', 'x', '--user', 'nobody@example.com'], 1, 'No staff account has the email nobody@example.com'],
    [['revoke', 'tok_doesnotexist'], 1, 'No active API token has the ID tok_doesnotexist'],
    [['revoke'], 2, 'revoke takes one token ID'],
    [['frobnicate'], 2, 'unknown command "frobnicate"'],
    [[], 2, 'a command is required'],
  ])('token %j fails clearly on stderr with exit %i', (args, status, message) => {
    const result = run('token', ...args);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stdout).toBe('');
  });
});

describe('npm run user', () => {
  it('creates a staff account with a memory-hard hash, and refuses a duplicate', async () => {
    const email = `staff-${Date.now()}@example.com`;
    const created = run('user', 'create', '--email', email, '--password', 'correct horse battery');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout).toContain(`Created staff account ${email}`);

    const { db } = await import('../../lib/db/client');
    const user = await db().user.findUniqueOrThrow({ where: { email } });
    expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(user.passwordHash).not.toContain('correct horse');

    const again = run('user', 'create', '--email', email.toUpperCase(), '--password', 'another password');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
  });

  it.each([
    [['create', '--email', 'not-an-email', '--password', 'long enough'], '--email must be an email address'],
    [['create', '--email', 'a@example.com', '--password', 'short'], '--password must be at least 8 characters'],
    [['create', '--password', 'long enough'], '--email is required'],
  ])('user %j is refused with exit 2', (args, message) => {
    const result = run('user', ...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`error: ${message}`);
  });
});
