// npm run webhook, run as an operator runs it, against the shared test database.
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { operatorScript } from '../support/cli';

function run(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, operatorScript('webhook', ...args), {
    env: { ...process.env, DATABASE_URL: inject('databaseUrl'), ...env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Nothing here may ever be delivered off this machine: endpoints point at a closed local port,
// with the guard lifted as a private network would have it, and are deleted before the test ends.
const LOCAL = { WEBHOOK_ALLOW_PRIVATE_URLS: '1' };

describe('npm run webhook', () => {
  it('creates an endpoint with its secret alone on the last line, lists it without the secret, and deletes it', () => {
    const created = run(['create', '--url', 'http://127.0.0.1:9/hooks', '--events', 'plant.deleted,plant.created'], LOCAL);
    expect(created.status, created.stderr).toBe(0);
    const lines = created.stdout.trimEnd().split('\n');
    const secret = lines.at(-1)!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.stdout).toMatch(/^Created webhook endpoint (wh_\w+) for http:\/\/127\.0\.0\.1:9\/hooks \(events: plant\.created, plant\.deleted\)\./);
    const id = /Created webhook endpoint (wh_\w+)/.exec(created.stdout)![1];

    const listed = run(['list']);
    expect(listed.status).toBe(0);
    const row = listed.stdout.split('\n').find((line) => line.startsWith(id))!;
    expect(row).toMatch(new RegExp(`^${id}\\s+http://127\\.0\\.0\\.1:9/hooks\\s+plant\\.created,plant\\.deleted\\s+enabled\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\s+\\d+\\s+\\d+$`));
    expect(listed.stdout).not.toContain(secret);

    const deleted = run(['delete', id]);
    expect(deleted.status, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted webhook endpoint ${id}`);
    expect(run(['list']).stdout).not.toContain(id);
  });

  it.each([
    [['create'], {}, 2, '--url is required'],
    [['create', '--url', 'http://127.0.0.1:9/hooks'], {}, 2, '--url must start with https://'],
    [['create', '--url', 'https://127.0.0.1/hooks'], {}, 2, '--url 127.0.0.1 cannot receive webhooks: 127.0.0.1 is a loopback address'],
    [['create', '--url', 'https://10.1.2.3/hooks'], {}, 2, '--url 10.1.2.3 cannot receive webhooks: 10.1.2.3 is a private address'],
    [['create', '--url', 'http://127.0.0.1:9/hooks', '--events', 'plant.sold'], LOCAL, 2, '--events must be one of plant.created, plant.updated, plant.deleted'],
    [['delete', 'wh_doesnotexist'], {}, 1, 'No webhook endpoint has id wh_doesnotexist'],
    [['delete'], {}, 2, 'delete takes one endpoint ID'],
    [['frobnicate'], {}, 2, 'unknown command "frobnicate"'],
  ])('webhook %j fails clearly on stderr', (args, env, status, message) => {
    const result = run(args, env);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stdout).toBe('');
  });
});
