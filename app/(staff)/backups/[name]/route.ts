// GET /backups/{name}: an admin downloads one of the backups in BACKUP_DIR, and the audit trail
// records it. HEAD answers the same headers and opens nothing and records nothing: no download
// takes place (without its own handler, Next would run GET's, record a download and leave the
// file open). Not part of the API: the /backups page links here, and the session cookie is the
// credential, as for the page itself.
import { Readable } from 'node:stream';
import { backupDir } from '@/lib/backups/config';
import { findBackup, openBackup } from '@/lib/backups/files';
import { recordAudit } from '@/lib/audit/records';
import { staffContext } from '@/lib/audit/context';
import { incomingRequest } from '@/lib/audit/incoming-request';
import { currentStaff, type Staff } from '@/lib/auth/sessions/current-staff';
import { ApiError } from '@/lib/errors';
import { log } from '@/lib/log';
import { methodNotAllowed, withoutAuth } from '@/lib/http/route';

const notFound = () => new ApiError('backup_not_found', 'There is no such backup (any more); see /backups for those there are.');

/** The admin asking; anyone else gets their answer: signed out, the way to sign in; staff, 403. */
async function admin(): Promise<Staff | Response> {
  const staff = await currentStaff();
  // Signed out: to the sign-in page and back to the list, as the page itself does.
  if (!staff) return new Response(null, { status: 307, headers: { location: `/login?callbackUrl=${encodeURIComponent('/backups')}` } });
  if (staff.role !== 'admin') {
    log.warn('page refused: admins only', { path: '/backups/{name}', userId: staff.id, role: staff.role });
    throw new ApiError('admins_only', 'Only admins may download backups.');
  }
  return staff;
}

// Next's router drops Content-Length from a route handler's answer and streams the body in chunks;
// it is set all the same, so the answer says its size wherever it is kept.
const downloadHeaders = (name: string, bytes: number) => ({
  'content-type': 'application/vnd.sqlite3',
  'content-length': String(bytes),
  'content-disposition': `attachment; filename="${name}"`,
  'cache-control': 'no-store',
});

export const GET = withoutAuth<{ name: string }>(async (_request, { params }) => {
  const staff = await admin();
  if (staff instanceof Response) return staff;
  // A name is opened in the folder as a backup's name, never joined to a path as given, and never
  // through a link (lib/backups/files.ts).
  const dir = backupDir();
  const backup = dir ? await openBackup(dir, params.name) : null;
  if (!backup) throw notFound();

  // Opened before the record is written: a file pruned meanwhile is a 404, and one pruned while it
  // streams is still read to the end through this descriptor, which the stream closes when it ends
  // or the client goes away.
  try {
    await recordAudit({ action: 'backup.downloaded', target: { type: 'backup', id: backup.name } }, staffContext(staff, await incomingRequest()));
    const body = Readable.toWeb(backup.file.createReadStream()) as ReadableStream<Uint8Array>;
    return new Response(body, { headers: downloadHeaders(backup.name, backup.bytes) });
  } catch (error) {
    await backup.file.close();
    throw error;
  }
});

export const HEAD = withoutAuth<{ name: string }>(async (_request, { params }) => {
  const staff = await admin();
  if (staff instanceof Response) return staff;
  const dir = backupDir();
  // Found by its listing alone, which reads the size: nothing is opened.
  const backup = dir ? await findBackup(dir, params.name) : null;
  if (!backup) throw notFound();
  return new Response(null, { headers: downloadHeaders(backup.name, backup.bytes) });
});

export const POST = methodNotAllowed(['GET', 'HEAD']);
