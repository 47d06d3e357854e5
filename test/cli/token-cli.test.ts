// The operator commands, run as an operator runs them, against the shared test database.
import { execFile } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { expectError, request, sharedServer } from '../support/api';
import { developmentScript, operatorScript } from '../support/cli';

// Asynchronous on purpose: spawnSync would stall this process's event loop for as long as the
// command runs, and a keep-alive connection the server closed meanwhile would then be reused.
function run(script: 'token', ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return runWith(operatorScript(script, ...args));
}

function runWith(argv: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, argv, { env: { ...process.env, DATABASE_URL: inject('databaseUrl') }, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run token', () => {
  it('creates a token shown once on the last line, lists it without its secret, and revokes it', async () => {
    const created = await run('token', 'create', '--name', 'ci deploy', '--expires-in', '30');
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const token = lines.at(-1)!;
    expect(token).toMatch(/^pst_[0-9A-Za-z]{49}$/);
    expect(created.stdout).toMatch(/Created API token (tok_\w+) "ci deploy" \(expires \d{4}-\d\d-\d\d/);
    const id = /Created API token (tok_\w+)/.exec(created.stdout)![1];

    expect((await request(sharedServer(), '/plants', { token })).status).toBe(200);

    const listed = await run('token', 'list');
    expect(listed.status).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toContain('ci deploy');
    expect(row).toContain(`${token.slice(0, 12)}…`);
    expect(row).toMatch(/active$/);
    expect(listed.stdout).not.toContain(token);

    const revoked = await run('token', 'revoke', id);
    expect(revoked.status, revoked.stderr).toBe(0);
    expectError(await request(sharedServer(), '/plants', { token }), 401, 40104);
    expect((await run('token', 'list')).stdout.split('\n').find((line) => line.startsWith(id))).toMatch(/revoked$/);
  });

  it('gives a token the scopes asked for (plants:read,plants:write by default), never beyond its owner\'s role', async () => {
    const readOnly = await run('token', 'create', '--name', 'read only', '--scopes', 'plants:read');
    expect(readOnly.status, readOnly.stderr).toBe(0);
    expect(readOnly.stdout).toContain('\nScopes: plants:read\n');
    const token = readOnly.stdout.trimEnd().split('\n').at(-1)!;
    expect((await request(sharedServer(), '/plants', { token })).status).toBe(200);
    expectError(await request(sharedServer(), '/plants', { method: 'POST', token, body: '{"id": 1, "name": "No"}' }), 403, 40301);

    const everything = await run('token', 'create', '--name', 'operator', '--scopes', 'plants:read, plants:write,webhooks:manage,audit:read,metrics:read');
    expect(everything.stdout).toContain('\nScopes: plants:read,plants:write,webhooks:manage,audit:read,metrics:read\n');

    // The scraper's token: GET /metrics and nothing else.
    const scraper = await run('token', 'create', '--name', 'prometheus', '--scopes', 'metrics:read');
    expect(scraper.status, scraper.stderr).toBe(0);
    expect(scraper.stdout).toContain('\nScopes: metrics:read\n');
    const scraperToken = scraper.stdout.trimEnd().split('\n').at(-1)!;
    const scraped = await request(sharedServer(), '/metrics', { token: scraperToken });
    expect(scraped.status, scraped.text).toBe(200);
    expect(scraped.text).toContain('# TYPE http_server_request_duration_seconds histogram');
    expectError(await request(sharedServer(), '/plants', { token: scraperToken }), 403, 40301);
    const listed = (await run('token', 'list')).stdout.split('\n');
    expect(listed[0]).toMatch(/^ID\s+NAME\s+PREFIX\s+SCOPES\s+OWNER\s+CREATED/);
    expect(listed.find((line) => line.includes('read only'))).toMatch(/\splants:read\s+-\s/);

    const { newAccount } = await import('../support/accounts');
    const staff = await newAccount('staff', 'token-cli');
    const beyond = await run('token', 'create', '--name', 'too much', '--user', staff.email, '--scopes', 'audit:read');
    expect(beyond.status).toBe(2);
    expect(beyond.stderr).toContain("error: --scopes: A staff account's token cannot have audit:read");
  });

  it('refuses a name with control characters, and escapes any it finds stored when it lists', async () => {
    const refused = await run('token', 'create', '--name', 'deploy\u001b[2J\u001b[H');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('error: --name must not contain control characters');

    // A name stored before the rule existed is printed with its control characters escaped.
    const created = await run('token', 'create', '--name', 'escaped later');
    const id = /Created API token (tok_\w+)/.exec(created.stdout)![1];
    const { db } = await import('../../lib/db/client');
    await db().apiToken.update({ where: { id }, data: { name: 'rewrite\u001b[2J\u001b[1;1Hme\u009b31m' } });
    const listed = await run('token', 'list');
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toContain('rewrite\\u001b[2J\\u001b[1;1Hme\\u009b31m');
    expect(listed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('logs creation and revocation as JSON lines on stderr, never the token', async () => {
    const created = await run('token', 'create', '--name', 'logged');
    const token = created.stdout.trimEnd().split('\n').at(-1)!;
    const id = /Created API token (tok_\w+)/.exec(created.stdout)![1];
    const revoked = await run('token', 'revoke', id);
    const lines = [created.stderr, revoked.stderr].join('').trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'api token created', tokenId: id, name: 'logged' }),
      expect.objectContaining({ level: 'info', msg: 'api token revoked', tokenId: id, revokedBy: null }),
    ]);
    expect(created.stderr + revoked.stderr).not.toContain(token.slice(4));
  });

  it('runs from its TypeScript source in development (npm run token) as it does from the build', async () => {
    const created = await runWith(developmentScript('token', 'create', '--name', 'from source'));
    expect(created.status, created.stderr).toBe(0);
    const id = /Created API token (tok_\w+)/.exec(created.stdout)![1];
    expect((await run('token', 'list')).stdout.split('\n').find((line) => line.startsWith(id))).toMatch(/from source.*active$/);
  });

  it.each([
    [['create'], 2, '--name is required'],
    [['create', '--name', 'x', '--scopes', 'plants:read,plants:admin'], 2, '--scopes: unknown scope plants:admin'],
    [['create', '--name', 'x', '--scopes', ','], 2, '--scopes needs at least one scope'],
    [['create', '--name', 'x', '--expires-in', 'soon'], 2, '--expires-in must be a whole number of days'],
    [['create', '--name', 'x', '--user', 'nobody@example.com'], 1, 'No staff account has the email nobody@example.com'],
    [['revoke', 'tok_doesnotexist'], 1, 'No active API token has the ID tok_doesnotexist'],
    [['revoke'], 2, 'revoke takes one token ID'],
    [['frobnicate'], 2, 'unknown command "frobnicate"'],
    [[], 2, 'a command is required'],
  ])('token %j fails clearly on stderr with exit %i', async (args, status, message) => {
    const result = await run('token', ...args);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stdout).toBe('');
  });
});
