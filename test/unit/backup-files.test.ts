// Opening a backup for download (lib/backups/files.ts): by a backup's name only, without following
// a link, and only a regular file. A link swapped in for a backup after it was listed is met at
// the open itself, the one step between the name and the bytes sent, so no moment is left between
// a check and the open: here the link is simply there when the open comes.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openBackup } from '../../lib/backups/files';

const dir = mkdtempSync(path.join(os.tmpdir(), 'plant-store-backup-files-'));
const outside = path.join(path.dirname(dir), `${path.basename(dir)}-outside.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterAll(() => rmSync(outside, { force: true }));

const BACKUP = 'plants-2026-01-01T00-00-00-000Z.db';
writeFileSync(path.join(dir, BACKUP), 'the backup');
writeFileSync(outside, 'not for download');

describe('openBackup', () => {
  it('opens a backup, a regular file in the folder, and gives its size', async () => {
    const opened = await openBackup(dir, BACKUP);
    if (!opened) throw new Error('not opened');
    try {
      expect(opened.bytes).toBe(10);
      expect((await opened.file.readFile()).toString()).toBe('the backup');
    } finally {
      await opened.file.close();
    }
  });

  it.each([
    ['a link to a file outside the folder', 'plants-2026-01-02T00-00-00-000Z.db', (file: string) => symlinkSync(outside, file)],
    ['a link to another backup', 'plants-2026-01-03T00-00-00-000Z.db', (file: string) => symlinkSync(path.join(dir, BACKUP), file)],
    ['a link to /etc/passwd', 'plants-2026-01-04T00-00-00-000Z.db', (file: string) => symlinkSync('/etc/passwd', file)],
    ['a folder', 'plants-2026-01-05T00-00-00-000Z.db', (file: string) => mkdirSync(file)],
    // Opened for reading, a FIFO would wait for a writer: it is refused at once.
    ['a FIFO', 'plants-2026-01-06T00-00-00-000Z.db', (file: string) => execFileSync('mkfifo', [file])],
  ])('refuses %s named as a backup', async (_what, name, make) => {
    make(path.join(dir, name));
    expect(await openBackup(dir, name)).toBeNull();
  });

  it.each(['plants.db', `../${path.basename(outside)}`, 'plants-2026-01-07T00-00-00-000Z.db', `${BACKUP}.partial`])('finds nothing called %j', async (name) => {
    expect(await openBackup(dir, name)).toBeNull();
  });
});
