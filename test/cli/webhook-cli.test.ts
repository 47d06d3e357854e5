// npm run webhook, run as an operator runs it, against the shared test database.
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { listAuditRecords } from '../../lib/audit/service';
import { openSecretWith, secretKey } from '../../lib/webhooks/secret-cipher';
import { operatorScript } from '../support/cli';
import { executeOn, testEngine } from '../support/database';
import { TEST_AUTH_SECRET } from '../support/server';

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

  it('rotates an endpoint\'s secret: the new one alone on the last line, the one before signing until the grace period ends; stored sealed', async () => {
    const created = run(['create', '--url', 'http://127.0.0.1:9/rotated'], LOCAL);
    expect(created.status, created.stderr).toBe(0);
    const id = /Created webhook endpoint (wh_\w+)/.exec(created.stdout)![1];
    const first = created.stdout.trimEnd().split('\n').at(-1)!;
    try {
      const stored = async () =>
        (await executeOn(testEngine(), inject('databaseUrl'), `SELECT "secret", "previousSecret" FROM "WebhookEndpoint" WHERE "id" = '${id}'`))[0] as {
          secret: string;
          previousSecret: string | null;
        };
      const open = (sealed: string | null) => openSecretWith(sealed!, [secretKey(TEST_AUTH_SECRET)]).secret;
      expect(await stored()).toEqual({ secret: expect.stringMatching(/^v1:/), previousSecret: null });
      expect(open((await stored()).secret)).toBe(first);

      const sent = Date.now();
      const rotated = run(['rotate-secret', id], { WEBHOOK_SECRET_GRACE: '36h' });
      expect(rotated.status, rotated.stderr).toBe(0);
      const lines = rotated.stdout.trimEnd().split('\n');
      const second = lines.at(-1)!;
      expect(second).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(second).not.toBe(first);
      expect(lines.slice(0, -1)).toEqual([
        `Rotated the signing secret of webhook endpoint ${id} for http://127.0.0.1:9/rotated.`,
        expect.stringMatching(/^Until (\d{4}-\d\d-\d\d \d\d:\d\d) UTC each delivery is signed with the previous secret too, so the receiver can switch in the meantime\.$/),
        'The new signing secret is below. Copy it now: it will not be shown again.',
      ]);
      const until = Date.parse(`${/Until (\S+ \S+) UTC/.exec(lines[1])![1].replace(' ', 'T')}:00Z`);
      expect(until).toBeGreaterThan(sent + 36 * 3_600_000 - 120_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 36 * 3_600_000);
      const after = await stored();
      expect([open(after.secret), open(after.previousSecret)]).toEqual([second, first]);
      expect(JSON.stringify(after)).not.toContain('whsec_');
      expect(run(['list']).stdout).not.toContain(second);

      const { records } = await listAuditRecords({ target: `webhook:${id}`, limit: 10 });
      expect(records[0]).toMatchObject({ action: 'webhook.secret_rotated', actor: { type: 'system', name: 'cli' }, after: { previousSecretSignsUntil: expect.any(String) } });
      expect(JSON.stringify(records)).not.toContain('whsec_');

      // With no grace period, the one before stops signing at once.
      const abrupt = run(['rotate-secret', id], { WEBHOOK_SECRET_GRACE: '0s' });
      expect(abrupt.status, abrupt.stderr).toBe(0);
      expect(abrupt.stdout).toContain('The previous secret no longer signs.');
      expect((await stored()).previousSecret).toBeNull();
    } finally {
      run(['delete', id]);
    }
  });

  it.each([
    [['create'], {}, 2, '--url is required'],
    [['create', '--url', 'http://127.0.0.1:9/hooks'], {}, 2, '--url must start with https://'],
    [['create', '--url', 'https://127.0.0.1/hooks'], {}, 2, '--url 127.0.0.1 cannot receive webhooks: 127.0.0.1 is a loopback address'],
    [['create', '--url', 'https://10.1.2.3/hooks'], {}, 2, '--url 10.1.2.3 cannot receive webhooks: 10.1.2.3 is a private address'],
    [['create', '--url', 'http://127.0.0.1:9/hooks', '--events', 'plant.sold'], LOCAL, 2, '--events must be one of plant.created, plant.updated, plant.deleted'],
    [['delete', 'wh_doesnotexist'], {}, 1, 'No webhook endpoint has id wh_doesnotexist'],
    [['delete'], {}, 2, 'delete takes one endpoint ID'],
    [['rotate-secret'], {}, 2, 'rotate-secret takes one endpoint ID (see npm run webhook -- list)'],
    [['rotate-secret', 'wh_a', 'wh_b'], {}, 2, 'rotate-secret takes one endpoint ID'],
    [['rotate-secret', 'wh_doesnotexist'], {}, 1, 'No webhook endpoint has id wh_doesnotexist'],
    [['rotate-secret', 'wh_doesnotexist'], { WEBHOOK_SECRET_GRACE: 'a day' }, 1, 'WEBHOOK_SECRET_GRACE must be a duration such as 24h, 2d or 30m'],
    [['frobnicate'], {}, 2, 'unknown command "frobnicate"'],
  ])('webhook %j fails clearly on stderr', (args, env, status, message) => {
    const result = run(args, env);
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(`error: ${message}`);
    expect(result.stdout).toBe('');
  });
});
