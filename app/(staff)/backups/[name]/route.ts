// GET /backups/{name}: an admin downloads one of the backups in BACKUP_DIR, and the audit trail
// records it. Not part of the API: the /backups page links here, and the session cookie is the
// credential, as for the page itself.
import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { backupDir } from '@/lib/backups/config';
import { findBackup } from '@/lib/backups/files';
import { recordAudit } from '@/lib/audit/records';
import { incomingRequest, staffContext } from '@/lib/audit/context';
import { currentStaff } from '@/lib/auth/sessions/current-staff';
import { ApiError } from '@/lib/errors';
import { log } from '@/lib/log';
import { methodNotAllowed, withoutAuth } from '@/lib/http/route';

export const GET = withoutAuth<{ name: string }>(async (_request, { params }) => {
  const staff = await currentStaff();
  // Signed out: to the sign-in page and back to the list, as the page itself does.
  if (!staff) return new Response(null, { status: 307, headers: { location: `/login?callbackUrl=${encodeURIComponent('/backups')}` } });
  if (staff.role !== 'admin') {
    log.warn('page refused: admins only', { path: '/backups/{name}', userId: staff.id, role: staff.role });
    throw new ApiError('admins_only', 'Only admins may download backups.');
  }
  const dir = backupDir();
  // A name is looked up among the folder's backups, never joined to a path as given.
  const backup = dir ? await findBackup(dir, params.name) : null;
  if (!dir || !backup) throw new ApiError('backup_not_found', 'There is no such backup (any more); see /backups for those there are.');

  // Opened before the record is written: a file pruned meanwhile is a 404, and one pruned while it
  // streams is still read to the end through this descriptor.
  const file = await open(backup.path, 'r').catch(() => {
    throw new ApiError('backup_not_found', 'There is no such backup (any more); see /backups for those there are.');
  });
  try {
    const { size } = await file.stat();
    await recordAudit({ action: 'backup.downloaded', target: { type: 'backup', id: backup.name } }, staffContext(staff, await incomingRequest()));
    const body = Readable.toWeb(file.createReadStream()) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        'content-type': 'application/vnd.sqlite3',
        'content-length': String(size),
        'content-disposition': `attachment; filename="${backup.name}"`,
        'cache-control': 'no-store',
      },
    });
  } catch (error) {
    await file.close();
    throw error;
  }
});

export const POST = methodNotAllowed(['GET']);
