// npm run user, run as an operator runs it, on a database of this file's own (so the first
// account and the last admin are known). The hidden prompt is typed into a real terminal
// (util-linux `script` gives the command a pseudo-terminal).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorScript } from '../support/cli';
import { createTestDatabase, testEngine, usingDatabase, type TestDatabase } from '../support/database';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createUser } from '../../lib/auth/accounts/directory';
import { confirmEnrolment, startEnrolment } from '../../lib/auth/second-factor/factors';
import { codeAt } from '../../lib/auth/second-factor/totp';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.remove();
});

type Run = { status: number | null; stdout: string; stderr: string };

/** Runs `npm run user -- ...args`, with `stdin` piped in (or nothing, closed). */
function user(args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, operatorScript('user', ...args), { env: { ...process.env, DATABASE_URL: database.url } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** Runs it in a terminal, typing each answer once its prompt has appeared; everything the terminal showed. */
function userAtTerminal(args: string[], answers: Record<string, string>): Promise<{ status: number | null; screen: string }> {
  const command = ['node', ...operatorScript('user', ...args)].map((word) => `'${word}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, DATABASE_URL: database.url } });
    let screen = '';
    child.stdout.on('data', (chunk) => {
      screen += chunk;
      for (const [prompt, answer] of Object.entries(answers)) if (screen.endsWith(prompt)) child.stdin.write(`${answer}\r`);
    });
    child.on('close', (status) => resolve({ status, screen }));
  });
}

describe('npm run user', () => {
  it('asks for the password at a hidden prompt, twice; the first account is an admin', async () => {
    const run = await userAtTerminal(['create', '--email', 'Founder@Example.com', '--role', 'staff'], {
      'Password: ': 'the founder passphrase',
      'Password again: ': 'the founder passphrase',
    });
    expect(run.status, run.screen).toBe(0);
    expect(run.screen).toContain('Created admin account founder@example.com');
    expect(run.screen).toContain('(the first account is always an admin)');
    expect(run.screen).not.toContain('founder passphrase');
  });

  it('reads the password from stdin with --password-stdin, or takes --password with a warning; a mistyped prompt changes nothing', async () => {
    const [piped, visible, mismatch] = await Promise.all([
      user(['create', '--email', 'piped@example.com', '--password-stdin'], 'a piped-in passphrase\n'),
      user(['create', '--email', 'visible@example.com', '--role', 'staff', '--password', 'a visible passphrase']),
      userAtTerminal(['create', '--email', 'typo@example.com'], { 'Password: ': 'first try at it', 'Password again: ': 'second try at it' }),
    ]);
    expect(piped.status, piped.stderr).toBe(0);
    expect(piped.stdout).toContain('Created staff account piped@example.com');
    // No warning: stderr holds only the command's log line (the CLI keeps stdout for its output).
    expect(piped.stderr.split('\n').filter(Boolean).map((line) => JSON.parse(line).msg)).toEqual(['account changed']);
    expect(visible.status, visible.stderr).toBe(0);
    expect(visible.stdout).toContain('Created staff account visible@example.com');
    expect(visible.stderr).toContain('warning: --password puts the password where other users of this machine can see it');
    expect(mismatch.status).toBe(1);
    expect(mismatch.screen).toContain('the two passwords differ; nothing was changed');
  });

  // The wording is the CLI's own; the rules behind it are tested on both engines in
  // test/api/accounts.test.ts, so one engine is enough here.
  it.runIf(testEngine() === 'sqlite')('refuses what it cannot do, clearly', async () => {
    const cases: [string[], string, number, string][] = [
      [['create', '--email', 'short@example.com', '--password-stdin'], 'short pass\n', 2, 'error: the password must be at least 12 characters'],
      [['create', '--email', 'common@example.com', '--password-stdin'], 'qwertyuiop123\n', 2, 'error: the password is one of the most common passwords'],
      [['create', '--email', 'nobody@example.com'], '', 2, 'error: no terminal to ask for the password on: pipe it in with --password-stdin'],
      [['create', '--email', 'founder@example.com', '--password-stdin'], 'whatever it is now\n', 1, 'error: An account with the email founder@example.com already exists'],
      [['create', '--email', 'x@example.com', '--role', 'owner'], '', 2, 'error: --role must be admin or staff'],
      [['set-role', 'piped@example.com', 'owner'], '', 2, 'error: ROLE must be admin or staff'],
      [['disable', 'ghost@example.com'], '', 1, 'error: No staff account has the email ghost@example.com'],
      [['disable', 'founder@example.com'], '', 1, 'error: founder@example.com is the last active admin: make someone else an admin first.'],
      [['set-role', 'founder@example.com', 'staff'], '', 1, 'error: founder@example.com is the last active admin'],
    ];
    const runs = await Promise.all(cases.map(([args, stdin]) => user(args, stdin)));
    runs.forEach((run, index) => {
      const [args, , status, message] = cases[index];
      expect(run.status, args.join(' ')).toBe(status);
      expect(run.stderr, args.join(' ')).toContain(message);
    });
  });

  it('lists, disables, enables and changes roles', async () => {
    const [promoted, disabled] = await Promise.all([user(['set-role', 'piped@example.com', 'admin']), user(['disable', 'visible@example.com'])]);
    expect(promoted.stdout).toContain('piped@example.com is now an admin; their sessions have ended.');
    expect(disabled.stdout).toContain('Disabled visible@example.com: signed out everywhere, and their API tokens are refused until enabled.');
    const [demoted, listWhileDisabled] = await Promise.all([user(['set-role', 'founder@example.com', 'staff']), user(['list'])]);
    expect(demoted.status, demoted.stderr).toBe(0);
    expect(listWhileDisabled.stdout).toMatch(/\nvisible@example\.com\s+staff\s+disabled\s/);
    expect((await user(['enable', 'visible@example.com'])).stdout).toContain('Enabled visible@example.com.');

    const list = await user(['list']);
    expect(list.status).toBe(0);
    const rows = list.stdout.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^EMAIL\s+ROLE\s+STATUS\s+LAST SIGN-IN \(UTC\)\s+CREATED\s+ID$/);
    expect(rows.find((row) => row.startsWith('founder@example.com'))).toMatch(/^founder@example\.com\s+staff\s+active\s+-\s+\d{4}-/);
    expect(rows.find((row) => row.startsWith('piped@example.com'))).toMatch(/\s+admin\s+active\s+/);
    expect(rows.find((row) => row.startsWith('visible@example.com'))).toMatch(/\s+staff\s+active\s+/);
  });

  it('2fa reset removes a second factor and its recovery codes, ends the sessions, and is audited', async () => {
    const id = await usingDatabase(database.url, async () => {
      const { account } = await createUser({ email: 'lost-phone@example.com', password: 'a phone left on the bus' });
      const { secret } = await startEnrolment(account.id, account.email);
      await confirmEnrolment(account.id, codeAt(secret, Date.now()), OPERATOR_COMMAND);
      return account.id;
    });
    const version = async () => Number(((await database.execute(`SELECT "sessionVersion" FROM "User" WHERE "id" = '${id}'`))[0] as { sessionVersion: number }).sessionVersion);
    const before = await version();

    const reset = await user(['2fa', 'reset', '--email', 'lost-phone@example.com']);
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('Reset the second factor of lost-phone@example.com: signed out everywhere');
    expect(await database.execute(`SELECT "userId" FROM "SecondFactor" WHERE "userId" = '${id}'`)).toEqual([]);
    expect(await database.execute(`SELECT "hash" FROM "RecoveryCode" WHERE "userId" = '${id}'`)).toEqual([]);
    expect(await version()).toBe(before + 1);
    expect(await database.execute(`SELECT "actorType", "actorName" FROM "AuditEvent" WHERE "action" = 'staff.second_factor_reset' AND "targetId" = '${id}'`)).toEqual([
      { actorType: 'system', actorName: 'cli' },
    ]);

    const again = await user(['2fa', 'reset', '--email', 'lost-phone@example.com']);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('lost-phone@example.com has no second factor: nothing to reset.');
    for (const [args, status, message] of [
      [['2fa'], 2, '2fa takes: reset --email EMAIL'],
      [['2fa', 'reset'], 2, '2fa reset takes --email EMAIL'],
      [['2fa', 'reset', '--email', 'ghost@example.com'], 1, 'No staff account has the email ghost@example.com'],
    ] as const) {
      const run = await user([...args]);
      expect(run.status, args.join(' ')).toBe(status);
      expect(run.stderr).toContain(message);
    }
  });
});
