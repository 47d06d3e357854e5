// npm start as an operator runs it: on a new SQLite file it migrates, hints at the missing staff
// account, and serves the API from the same process (no child server), which stops on SIGTERM; it
// refuses malformed settings, every one at once, and a weak AUTH_SECRET before it starts anything.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOn, uniqueId } from '../support/api';
import { tokenIn } from '../support/database';
import { test } from '../support/fixtures';
import { TEST_AUTH_SECRET } from '../support/server';

/** The inode of the socket listening on 127.0.0.1:`port`, from /proc/net/tcp. */
function listeningSocket(port: number): string {
  const wanted = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // local address, remote, state (0A: LISTEN), ..., inode
    if (fields[1] === wanted && fields[3] === '0A') return fields[9];
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

/** Whether process `pid` holds socket `inode` open. */
function holdsSocket(pid: number, inode: string): boolean {
  return readdirSync(`/proc/${pid}/fd`).some((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
    } catch {
      return false; // closed meanwhile
    }
  });
}

let folder: string;
test.beforeAll(({ fileTempDir }) => {
  folder = fileTempDir;
});

describe('npm start', () => {
  it('migrates a new database, serves the API from the same process on the free port PORT=0 asks for, and stops on SIGTERM', async () => {
    const databaseUrl = `file:${path.join(folder, 'plants.db')}`;
    const started = performance.now();
    // npm start's own command (package.json): node, its flags, the script.
    const [, ...startArgs] = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
    const child = spawn(process.execPath, startArgs, {
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, AUTH_SECRET: TEST_AUTH_SECRET, PORT: '0', HOSTNAME: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let url = '';
    try {
      // The port is the one the listening line names: a free one the system chose, not PORT's default.
      await expect.poll(() => child.exitCode === null && /"msg":"listening"/.test(output), { timeout: 30_000, interval: 50 }).toBe(true);
      url = /"msg":"listening","url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output)?.[1] ?? '';
      expect(url, output).not.toBe('');
      const port = Number(new URL(url).port);
      expect(port).not.toBe(3000);
      for (;;) {
        expect(child.exitCode, output).toBeNull();
        const healthy = await fetch(`${url}/api/health`).then((response) => response.ok, () => false);
        if (healthy) break;
        expect(performance.now() - started, `not healthy in 30 s:\n${output}`).toBeLessThan(30_000);
        await new Promise((resolve) => setTimeout(resolve, 50)); // paces the health poll (its deadline is above)
      }
      console.log(`npm start: healthy after ${Math.round(performance.now() - started)} ms (migrations applied to a new file)`);

      const { token } = await tokenIn(databaseUrl, 'start');
      const id = uniqueId();
      expect((await createOn({ url }, token, `{"id": ${id}, "name": "Started"}`)).text).toBe(`{"id":${id},"name":"Started"}`);
      await expect.poll(() => output).toMatch(/no staff account yet: create the first admin with {2}npm run user -- create/);
      expect(output).toMatch(/\[start\] applied migrations: \d{14}_init/);
      expect(output).toMatch(/route handlers answered directly: \/plants, \/plants\/\[id\], \/plants\/batch, \/stats, \/api\/health/);
      // Every page and route loaded, and the public pages rendered once, before it listened.
      expect(output).toMatch(/"msg":"listening".*"preloaded":true,"warmed":true,"heapLimitMb":4\d\d\b/);
      // But Next's copy of the routes answered directly: Next loads one when a request first reaches
      // it there, as HEAD and OPTIONS do (Next derives them).
      expect(output).toMatch(/"notPreloaded":\["\/plants","\/plants\/\[id\]","\/plants\/batch","\/stats","\/api\/health"/);
      const head = await fetch(`${url}/api/health`, { method: 'HEAD' });
      expect([head.status, head.headers.get('cache-control')]).toEqual([200, 'no-store']);
      const options = await fetch(`${url}/plants/1`, { method: 'OPTIONS' });
      expect([options.status, options.headers.get('allow')]).toEqual([204, expect.stringContaining('PATCH')]);
      expect(output).not.toMatch(/no cap on the heap/);
      // Next builds its requests on the port too: its own routes answer there.
      const csrf = await fetch(`${url}/api/auth/csrf`);
      expect(csrf.status).toBe(200);
      expect(await csrf.json()).toEqual({ csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/) });
      // One process: the node that npm start runs is the one listening, and it has no children.
      expect(holdsSocket(child.pid!, listeningSocket(port)), 'the started process holds the listening socket').toBe(true);
      expect(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim()).toBe('');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(143);
    expect(await fetch(`${url}/api/health`).then(() => 'answered', () => 'refused')).toBe('refused');
  }, 60_000);

  it.each([
    ['TRUST_PROXY', 'maybe', `TRUST_PROXY must be true, false, a number of proxies, or the proxies' addresses and networks, comma-separated (such as loopback, 10.0.0.0/8, 2001:db8::/32), got "maybe"`],
    ['TRUST_PROXY', 'loopback, 10.0.0.0/33', '(such as loopback, 10.0.0.0/8, 2001:db8::/32), got "loopback, 10.0.0.0/33": "10.0.0.0/33" is none of these'],
    ['PUBLIC_URL', 'plants.example.com/shop', 'PUBLIC_URL must be the service\'s public origin'],
    ['AUTH_FAILURES_PER_MINUTE', 'lots', 'AUTH_FAILURES_PER_MINUTE must be a whole number'],
    ['BACKUP_INTERVAL', 'daily', 'BACKUP_INTERVAL must be a duration of at least 1s, such as 24h, 6h or 30m (units ms, s, m, h, d), got "daily"'],
    ['BACKUP_KEEP', '0', 'BACKUP_KEEP must be a whole number of files (1 or more), got "0"'],
    ['WEBHOOK_SECRET_GRACE', 'a day', 'WEBHOOK_SECRET_GRACE must be a duration such as 24h, 2d or 30m (units ms, s, m, h, d; 0s for none), got "a day"'],
    ['SQLITE_SYNCHRONOUS', 'OFF', 'SQLITE_SYNCHRONOUS must be FULL (the default) or NORMAL, got "OFF"'],
    ['PORT', '80x', 'PORT must be a port number from 1 to 65535, or 0 for any free port, got "80x"'],
    ['PORT', '65536', 'PORT must be a port number from 1 to 65535, or 0 for any free port, got "65536"'],
    // Anyone may ask /api/auth/csrf for a value keyed by the secret, and test guesses against it offline.
    ['AUTH_SECRET', 'secret', "AUTH_SECRET must be at least 32 bytes, got 6: make one with  openssl rand -base64 32"],
    ['AUTH_SECRET', 'x'.repeat(31), 'AUTH_SECRET must be at least 32 bytes, got 31'],
  ])('refuses %s=%s before it starts anything', (name, value, message) => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: `file:${path.join(folder, 'refused.db')}`, [name]: value },
      encoding: 'utf8',
      // Were the value accepted, npm start would serve until stopped.
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it('lists every malformed setting at once, one line each, before it starts anything', () => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        DATABASE_URL: `file:${path.join(folder, 'refused-together.db')}`,
        PORT: '80x',
        DATABASE_POOL_SIZE: 'ten',
        KEEP_ALIVE_TIMEOUT: '5s',
        METRICS: 'maybe',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      '[start] DATABASE_POOL_SIZE must be a whole number of connections (1 or more), got "ten"',
      '[start] PORT must be a port number from 1 to 65535, or 0 for any free port, got "80x"',
      '[start] KEEP_ALIVE_TIMEOUT must be a whole number of milliseconds, got "5s"',
      '[start] METRICS must be "on" or "off", got "maybe"',
    ]);
    expect(result.stdout).not.toMatch(/applied migrations|database is up to date/);
  });

  it('ends with one line when the free port PORT=0 asks for cannot be had on HOSTNAME', () => {
    // 192.0.2.1 is a documentation address (RFC 5737): no interface of this machine has it.
    const result = spawnSync(process.execPath, ['scripts/start.mjs'], {
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: `file:${path.join(folder, 'unbound.db')}`, AUTH_SECRET: TEST_AUTH_SECRET, PORT: '0', HOSTNAME: '192.0.2.1' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/"msg":"could not listen".*"code":"EADDRNOTAVAIL"/);
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  }, 40_000);

  it('the server run without npm start ends with one line, no stack, when a setting it reads cannot be read', () => {
    const result = spawnSync(process.execPath, ['.next/standalone/server.js'], {
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: `file:${path.join(folder, 'unread.db')}`, AUTH_SECRET: TEST_AUTH_SECRET, PORT: '80x' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    const lines = (result.stdout + result.stderr).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'error',
      msg: 'could not start: a setting cannot be read',
      problems: ['PORT must be a port number from 1 to 65535, or 0 for any free port, got "80x"'],
    });
  }, 40_000);

  // Vercel runs neither npm start nor this server: there, the secret is first read when something
  // signs or checks a session, and that refuses it. So does the server run without npm start.
  test('without npm start, a weak AUTH_SECRET signs nothing: sign-in and sessions answer 500, and the log says why', async ({ startOwnServer }) => {
    const server = await startOwnServer({ env: { AUTH_SECRET: 'secret' } });
    for (const target of ['/api/auth/csrf', '/api/auth/session']) {
      const response = await fetch(`${server.url}${target}`);
      expect(response.status, target).toBe(500);
      const body = await response.text();
      expect(body, target).not.toMatch(/csrfToken|secret/);
      expect(body, target).toContain('"error":50001');
    }
    expect(server.output()).toContain('AUTH_SECRET must be at least 32 bytes, got 6: make one with  openssl rand -base64 32');
    // What needs no secret still serves.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});
