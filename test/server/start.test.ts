// npm start as an operator runs it: on a new SQLite file it migrates, hints at the missing staff
// account, and serves the API from the same process (no child server), which stops on SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOn, uniqueId } from '../support/api';
import { tokenIn } from '../support/database';
import { test } from '../support/fixtures';
import { freePort, TEST_AUTH_SECRET } from '../support/server';

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
  it('migrates a new database, serves the API from the same process, and stops on SIGTERM', async () => {
    const databaseUrl = `file:${path.join(folder, 'plants.db')}`;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const started = performance.now();
    // npm start's own command (package.json): node, its flags, the script.
    const [, ...startArgs] = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
    const child = spawn(process.execPath, startArgs, {
      env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, AUTH_SECRET: TEST_AUTH_SECRET, PORT: String(port), HOSTNAME: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
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
      expect(output).not.toMatch(/no cap on the heap/);
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
    ['TRUST_PROXY', 'maybe', 'TRUST_PROXY must be true, false or a number of proxies, got "maybe"'],
    ['PUBLIC_URL', 'plants.example.com/shop', 'PUBLIC_URL must be the service\'s public origin'],
    ['AUTH_FAILURES_PER_MINUTE', 'lots', 'AUTH_FAILURES_PER_MINUTE must be a whole number'],
    ['BACKUP_INTERVAL', 'daily', 'BACKUP_INTERVAL must be a duration of at least 1s, such as 24h, 6h or 30m (units ms, s, m, h, d), got "daily"'],
    ['BACKUP_KEEP', '0', 'BACKUP_KEEP must be a whole number of files (1 or more), got "0"'],
    ['WEBHOOK_SECRET_GRACE', 'a day', 'WEBHOOK_SECRET_GRACE must be a duration such as 24h, 2d or 30m (units ms, s, m, h, d; 0s for none), got "a day"'],
    ['SQLITE_SYNCHRONOUS', 'OFF', 'SQLITE_SYNCHRONOUS must be FULL (the default) or NORMAL, got "OFF"'],
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
});
