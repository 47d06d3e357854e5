// npm run db -- backup, restore and check, and the server's scheduled backups, as operators run them:
// on SQLite against the real production server while it takes writes; on PostgreSQL, the plain
// refusal that sends the operator to pg_dump and pg_restore.
import { copyFileSync, existsSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, onTestFinished } from 'vitest';
import { applyMigrations } from '../../lib/db/migrate';
import { newAccount, signIn } from '../support/accounts';
import { createOn, request, uniqueId } from '../support/api';
import { dbCommand as db } from '../support/cli';
import { migrationsBefore } from '../support/migrations';
import { testEngine, tokenIn, usingDatabase, type TestDatabase } from '../support/database';
import { test } from '../support/fixtures';
import type { RunningServer } from '../support/server';

/** Runs `sql` on an SQLite file of the test's own (a backup), integers as bigint. */
function query<Row>(file: string, sql: string): Row[] {
  const connection = new Database(file, { readonly: true });
  try {
    return connection.prepare(sql).safeIntegers(true).all() as Row[];
  } finally {
    connection.close();
  }
}

const backupFiles = (dir: string) => readdirSync(dir).filter((name) => /^plants-.*Z\.db$/.test(name));

/** The descriptors process `pid` holds open on files in `dir`, as the paths they name. */
function openIn(pid: number, dir: string): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return target.startsWith(`${dir}/`) ? [target] : [];
    } catch {
      return []; // closed meanwhile
    }
  });
}

/** Waits for `condition` to hold, up to `timeoutMs`, and says what was last seen when it does not. */
async function waitFor(condition: () => boolean, timeoutMs: number, seen: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms; last seen:\n${seen()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

if (testEngine() === 'postgresql') {
  describe('npm run db on PostgreSQL', () => {
    test('backup and restore refuse, and say to use pg_dump and pg_restore', async ({ makeDatabase }) => {
      const database = await makeDatabase();
      const backup = await db(database.url, 'backup');
      expect(backup.status, backup.stderr).toBe(1);
      expect(backup.stderr).toContain('On PostgreSQL, back up with pg_dump: pg_dump --format=custom --file=plants.dump "$DATABASE_URL"');
      expect(backup.stdout).toBe('');

      const restore = await db(database.url, 'restore', 'plants.dump');
      expect(restore.status, restore.stderr).toBe(1);
      expect(restore.stderr).toContain('On PostgreSQL, restore with pg_restore: stop the servers, then pg_restore --clean --if-exists --no-owner');
    });

    test('a server with BACKUP_DIR starts no schedule: it says why once, writes nothing, and /backups names the tools to use', async ({ startOwnServer, makeTempDir }) => {
      const dir = path.join(makeTempDir(), 'never-written');
      const server = await startOwnServer({ env: { BACKUP_DIR: dir, BACKUP_INTERVAL: '1s' } });
      await waitFor(() => server.output().includes('"msg":"scheduled backups off: this database is backed up with its own tools"'), 30_000, server.output);
      const admin = await usingDatabase(server.database.url, () => newAccount('admin', 'pg-backups-admin'));
      const page = await (await signIn(server.url, admin)).fetch('/backups');
      expect(page.status).toBe(200);
      // (React marks where one text node ends and the next begins.)
      expect((await page.text()).replaceAll('<!-- -->', '')).toContain('backed up and restored with its own tools, pg_dump and pg_restore, not by the server');
      // Two intervals on, still nothing attempted.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect(server.output()).not.toContain('"msg":"backup failed"');
      expect(server.output()).not.toContain('"msg":"scheduled backups on"');
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    });

    test('check reports the migrations and the rows', async ({ makeDatabase }) => {
      const database = await makeDatabase();
      const check = await db(database.url, 'check');
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toContain('Integrity: not checked on postgresql');
      expect(check.stdout).toMatch(/Migrations: \d+ applied, 0 pending/);
      expect(check.stdout).toMatch(/^plants +0$/m);
    });
  });
} else {
  describe('npm run db -- backup and restore on SQLite', () => {
    let source: TestDatabase;
    let server: RunningServer;
    let token: string;
    let copy: string;
    let answeredBeforeBackup: bigint[] = [];

    test('takes a consistent backup during a burst of 2,000 creates: every plant answered before it started is in the copy', async ({ ownDatabase, startFileServer, fileTempDir }) => {
      source = ownDatabase;
      ({ token } = await tokenIn(source.url, 'backup-burst'));
      server = await startFileServer({ database: source });
      const out = path.join(fileTempDir, 'during-the-burst.db');

      const answered: bigint[] = [];
      const failures: string[] = [];
      let sent = 0;
      let backupStarted = false;
      let backupDone = false;
      let answeredWhileBackingUp = 0;
      // Sixteen clients sharing 2,000 creates, and going on until the backup has finished.
      const clients = Array.from({ length: 16 }, async () => {
        while (sent < 2000 || !backupDone) {
          sent++;
          const id = uniqueId();
          const response = await createOn(server, token, `{"id": ${id}, "name": "Backed up ${id}"}`);
          if (response.status !== 200) failures.push(`${response.status} ${response.text}`);
          else {
            answered.push(id);
            if (backupStarted && !backupDone) answeredWhileBackingUp++;
          }
        }
      });
      await waitFor(() => answered.length >= 200, 60_000, () => `${answered.length} answered`);
      // Everything answered by now was answered before the backup process even started.
      answeredBeforeBackup = [...answered];
      backupStarted = true;
      const backup = await db(source.url, 'backup', '--out', out);
      backupDone = true;
      await Promise.all(clients);

      expect(backup.status, backup.stderr).toBe(0);
      expect(backup.stdout.trimEnd().split('\n').at(-1)).toBe(out);
      expect(failures).toEqual([]);
      expect(answered.length).toBeGreaterThanOrEqual(2000);
      expect(answeredWhileBackingUp, 'creates were answered while the backup ran').toBeGreaterThan(0);

      expect(query<{ integrity_check: string }>(out, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const inCopy = new Set(query<{ id: bigint }>(out, 'SELECT "id" FROM "Plant"').map((row) => row.id));
      expect(answeredBeforeBackup.filter((id) => !inCopy.has(id)), 'answered before the backup, missing from it').toEqual([]);
      // One self-contained file: nothing beside it.
      expect(existsSync(`${out}-wal`)).toBe(false);
      copy = out;
      process.stdout.write(
        `backup during a burst: ${answeredBeforeBackup.length} answered before it started (all in the copy), ${answeredWhileBackingUp} while it ran, ${inCopy.size} in the copy\n`,
      );
    }, 180_000);

    test('refuses to restore while a server runs on the database, and changes nothing', async () => {
      const before = await source.execute('SELECT count(*) AS n FROM "Plant"');
      const restore = await db(source.url, 'restore', copy);
      expect(restore.status).toBe(1);
      expect(restore.stderr).toMatch(/A server is running on .+ \(it holds .+\.lock\)\. Stop it, then restore; nothing was changed\./);
      expect(await source.execute('SELECT count(*) AS n FROM "Plant"')).toEqual(before);
      expect(readdirSync(path.dirname(source.url.slice('file:'.length))).filter((name) => name.includes('.replaced-'))).toEqual([]);
      expect((await request(server, '/api/health')).status).toBe(200);
    });

    test('restores the copy in place of the database it keeps beside it, and the copy serves', async ({ startOwnServer }) => {
      await server.stop();
      const file = source.url.slice('file:'.length);
      const plantsBefore = (await source.execute('SELECT count(*) AS n FROM "Plant"')) as { n: bigint }[];

      const restore = await db(source.url, 'restore', copy);
      expect(restore.status, restore.stderr).toBe(0);
      const kept = /The database it replaced is kept as (.+)$/m.exec(restore.stdout)?.[1];
      expect(kept, restore.stdout).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.replaced-`));
      expect(query<{ n: bigint }>(kept!, 'SELECT count(*) AS n FROM "Plant"')).toEqual(plantsBefore);
      expect(query<{ integrity_check: string }>(file, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);

      const restored = await startOwnServer({ database: source });
      for (const id of answeredBeforeBackup.slice(0, 20)) {
        const read = await request(restored, `/plants/${id}`, { headers: { authorization: `Bearer ${token}` } });
        expect(read.status, read.text).toBe(200);
        expect(read.text).toBe(`{"id":${id},"name":"Backed up ${id}"}`);
      }
      const id = uniqueId();
      expect((await createOn(restored, token, `{"id": ${id}, "name": "After the restore"}`)).status).toBe(200);

      const check = await db(source.url, 'check');
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toContain('Integrity: ok');
      expect(check.stdout).toMatch(/Migrations: \d+ applied, 0 pending/);
      await restored.stop();
    });

    test('refuses a file that is not a database, and one that fails its integrity check', async ({ makeDatabase, makeTempDir }) => {
      const target = await makeDatabase();
      const dir = makeTempDir();
      const garbage = path.join(dir, 'garbage.db');
      writeFileSync(garbage, 'not a database at all, just some bytes '.repeat(200));
      const refused = await db(target.url, 'restore', garbage);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`${garbage} is not a readable SQLite database`);

      // A real backup with pages in its middle overwritten.
      const damaged = path.join(dir, 'damaged.db');
      copyFileSync(copy, damaged);
      const bytes = readFileSync(damaged);
      for (let offset = 4096 * 3; offset < bytes.length - 4096; offset += 4096 * 4) bytes.fill(0x5a, offset + 8, offset + 400);
      writeFileSync(damaged, bytes);
      const corrupt = await db(target.url, 'restore', damaged);
      expect(corrupt.status).toBe(1);
      expect(corrupt.stderr).toMatch(new RegExp(`${damaged.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} failed its integrity check|is not a readable SQLite database`));

      // Neither touched the database.
      const file = target.url.slice('file:'.length);
      expect(readdirSync(path.dirname(file)).filter((name) => /\.(replaced-|restoring)/.test(name))).toEqual([]);
    });

    test('refuses a backup with a migration newer than the code', async ({ makeDatabase, makeTempDir }) => {
      const target = await makeDatabase();
      const newer = path.join(makeTempDir(), 'newer.db');
      copyFileSync(copy, newer);
      const connection = new Database(newer);
      connection
        .prepare(
          `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
           VALUES ('future', 'x', CURRENT_TIMESTAMP, '29991231000000_from_the_future', CURRENT_TIMESTAMP, 1)`,
        )
        .run();
      connection.close();
      const refused = await db(target.url, 'restore', newer);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('was made by a newer version of Plant Store: it has migrations this code does not know (29991231000000_from_the_future)');
    });

    test('applies the code\'s pending migrations to an older backup as it restores it', async ({ makeTempDir }) => {
      const older = migrationsBefore('sqlite', '_search_without_column_sizes');
      onTestFinished(older.remove);
      const dir = makeTempDir();
      const oldFile = path.join(dir, 'older.db');
      await applyMigrations({ databaseUrl: `file:${oldFile}`, migrationsDir: older.dir });
      const target = `file:${path.join(dir, 'restored', 'plants.db')}`;

      const restore = await db(target, 'restore', oldFile);
      expect(restore.status, restore.stderr).toBe(0);
      expect(restore.stdout).toMatch(/^Applied migrations: \d{14}_search_without_column_sizes(, \d{14}_\w+)*$/m);
      expect(restore.stdout).toContain('There was no database to replace.');
      const check = await db(target, 'check');
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toMatch(/Migrations: \d+ applied, 0 pending/);
    });

    test('check fails on a database migrated by a newer version', async ({ makeDatabase }) => {
      const target = await makeDatabase();
      await target.execute(
        `INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
         VALUES ('future', 'x', CURRENT_TIMESTAMP, '29991231000000_from_the_future', CURRENT_TIMESTAMP, 1)`,
      );
      const check = await db(target.url, 'check');
      expect(check.status).toBe(1);
      expect(check.stdout).toContain('not in this code: 29991231000000_from_the_future');
    });
  });

  describe('scheduled backups (BACKUP_DIR)', () => {
    test('writes a backup every BACKUP_INTERVAL and keeps the newest BACKUP_KEEP', async ({ startOwnServer, makeTempDir }) => {
      const dir = path.join(makeTempDir(), 'scheduled');
      const server = await startOwnServer({ env: { BACKUP_DIR: dir, BACKUP_INTERVAL: '2s', BACKUP_KEEP: '2' } });
      const written = () => server.output().split('\n').filter((line) => line.includes('"msg":"backup written"')).length;
      await waitFor(() => written() >= 4, 30_000, server.output);
      const files = backupFiles(dir);
      expect(files.length, files.join(', ')).toBeLessThanOrEqual(2);
      expect(files.length).toBeGreaterThanOrEqual(1);
      for (const name of files) {
        expect(query<{ integrity_check: string }>(path.join(dir, name), 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      }
      expect(server.output()).toContain('"msg":"scheduled backups on"');
      expect(server.output()).not.toContain('"msg":"backup failed"');
      // The schedule stops with the server, which exits as it always does on SIGTERM.
      await server.stop('SIGTERM');
      expect(server.child.exitCode).toBe(143);
    }, 60_000);

    test('lists the backups on /backups for admins only, streams one with an audit record, answers HEAD with its headers alone, and refuses names outside the folder', async ({ startOwnServer, makeTempDir }) => {
      const dir = path.join(makeTempDir(), 'listed');
      const server = await startOwnServer({ env: { BACKUP_DIR: dir } });
      const { database } = server;
      await waitFor(() => server.output().includes('"msg":"backup written"'), 30_000, server.output);
      const [name] = backupFiles(dir);
      const [admin, member] = await usingDatabase(database.url, async () => [await newAccount('admin', 'backups-admin'), await newAccount('staff', 'backups-staff')]);
      const [asAdmin, asStaff] = await Promise.all([signIn(server.url, admin), signIn(server.url, member)]);

      const page = await asAdmin.fetch('/backups');
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`href="/backups/${name}"`);
      // HEAD: the download's headers and nothing more: no body, no record of a download (none took
      // place), no file left open.
      const head = await asAdmin.fetch(`/backups/${name}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(await head.text()).toBe('');
      expect(openIn(server.child.pid!, dir)).toEqual([]);
      expect(await database.execute(`SELECT count(*) AS n FROM "AuditEvent" WHERE "action" = 'backup.downloaded'`)).toEqual([{ n: 0n }]);
      const download = await asAdmin.fetch(`/backups/${name}`);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
      expect(download.headers.get('cache-control')).toBe('no-store');
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(bytes.equals(readFileSync(path.join(dir, name)))).toBe(true);
      await expect.poll(() => openIn(server.child.pid!, dir)).toEqual([]);
      // HEAD answered as GET did, header for header, but for how the body goes and the connection
      // after it (Node's server closes one after a HEAD answer). Next's router streams a route
      // handler's body and drops the Content-Length it set: neither says the size.
      const OF_THE_CONNECTION = ['date', 'x-request-id', 'transfer-encoding', 'connection', 'keep-alive'];
      const headersOf = (response: Response) => Object.fromEntries([...response.headers].filter(([header]) => !OF_THE_CONNECTION.includes(header)));
      expect(headersOf(head)).toEqual(headersOf(download));
      expect(headersOf(head)).toMatchObject({ 'content-type': 'application/vnd.sqlite3', 'cache-control': 'no-store' });
      const records = await database.execute(`SELECT "action", "actorName", "targetType", "targetId" FROM "AuditEvent" WHERE "action" = 'backup.downloaded'`);
      expect(records).toEqual([{ action: 'backup.downloaded', actorName: admin.email, targetType: 'backup', targetId: name }]);

      // Staff are refused the page and the file; a signed-out visitor is sent to sign in.
      expect((await asStaff.fetch('/backups')).status).toBe(403);
      const refused = await asStaff.fetch(`/backups/${name}`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ error: 40302, message: 'Only admins may download backups.' });
      const visitor = await fetch(`${server.url}/backups/${name}`, { redirect: 'manual' });
      expect(visitor.status).toBe(307);
      expect(visitor.headers.get('location')).toBe('/login?callbackUrl=%2Fbackups');
      // HEAD is refused alike.
      expect((await asStaff.fetch(`/backups/${name}`, { method: 'HEAD' })).status).toBe(403);
      const visitorHead = await fetch(`${server.url}/backups/${name}`, { method: 'HEAD', redirect: 'manual' });
      expect(visitorHead.status).toBe(307);
      expect(visitorHead.headers.get('location')).toBe('/login?callbackUrl=%2Fbackups');

      // Only a backup's name, of a regular file in the folder, is ever served.
      writeFileSync(path.join(path.dirname(dir), 'outside.db'), 'not for download');
      symlinkSync('/etc/passwd', path.join(dir, 'plants-2000-01-01T00-00-00-000Z.db'));
      for (const target of [
        '..%2Foutside.db',
        '%2e%2e%2foutside.db',
        '..%5Coutside.db',
        'plants-2000-01-01T00-00-00-000Z.db',
        'plants-2999-01-01T00-00-00-000Z.db',
        `${name}%00`,
        '%2Fetc%2Fpasswd',
      ]) {
        const answer = await asAdmin.fetch(`/backups/${target}`);
        expect(answer.status, target).toBe(404);
        const text = await answer.text();
        expect(text, target).not.toContain('root:');
        expect(text, target).not.toContain('not for download');
        expect((await asAdmin.fetch(`/backups/${target}`, { method: 'HEAD' })).status, target).toBe(404);
      }
      const records2 = await database.execute(`SELECT count(*) AS n FROM "AuditEvent" WHERE "action" = 'backup.downloaded'`);
      expect(records2).toEqual([{ n: 1n }]);

      // A client that goes away mid-download leaves no file open: a backup larger than the socket's buffers.
      const large = 'plants-2001-01-01T00-00-00-000Z.db';
      writeFileSync(path.join(dir, large), Buffer.alloc(64 * 1024 * 1024));
      const leaving = new AbortController();
      const partial = await asAdmin.fetch(`/backups/${large}`, { signal: leaving.signal });
      expect(partial.status).toBe(200);
      const reader = partial.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      expect(openIn(server.child.pid!, dir)).toEqual([path.join(dir, large)]);
      leaving.abort();
      await expect.poll(() => openIn(server.child.pid!, dir)).toEqual([]);
    }, 60_000);

    test('logs a failed backup and serves on', async ({ startOwnServer, makeTempDir }) => {
      const parent = path.join(makeTempDir(), 'a-file');
      writeFileSync(parent, 'a file where the folder should be');
      const server = await startOwnServer({ env: { BACKUP_DIR: path.join(parent, 'backups'), BACKUP_INTERVAL: '2s' } });
      const { token } = await tokenIn(server.database.url, 'failed-backup');
      const failed = () => server.output().split('\n').filter((line) => line.includes('"msg":"backup failed"'));
      await waitFor(() => failed().length >= 2, 30_000, server.output);
      expect(JSON.parse(failed()[0])).toMatchObject({ level: 'error', msg: 'backup failed', error: expect.stringContaining('ENOTDIR') });
      expect((await request(server, '/api/health')).status).toBe(200);
      const id = uniqueId();
      expect((await createOn(server, token, `{"id": ${id}, "name": "Still serving"}`)).status).toBe(200);
    }, 60_000);

    test('says plainly at start that BACKUP_INTERVAL is malformed, and serves on', async ({ startOwnServer, makeTempDir }) => {
      const server = await startOwnServer({ env: { BACKUP_DIR: makeTempDir(), BACKUP_INTERVAL: 'daily' } });
      await waitFor(() => server.output().includes('scheduled backups could not start'), 30_000, server.output);
      expect(server.output()).toContain('BACKUP_INTERVAL must be a duration of at least 1s, such as 24h, 6h or 30m (units ms, s, m, h, d), got \\"daily\\"');
      expect((await request(server, '/api/health')).status).toBe(200);
    });
  });
}
