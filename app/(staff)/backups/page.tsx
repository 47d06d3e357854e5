import type { Metadata } from 'next';
import { DataTable, TimeCell } from '@/components/data-table';
import { Alert } from '@/components/notices';
import { Timestamp } from '@/components/timestamp';
import { backupSettings } from '@/lib/backups/config';
import { listBackups, type BackupFile } from '@/lib/backups/files';
import { backupStatus } from '@/lib/backups/status';
import { requireAdmin } from '@/lib/auth/sessions/current-staff';
import { operatorCommand } from '@/lib/shared/operator-commands';
import { engine } from '@/lib/db/engine';
import { DEFAULT_BACKUP_INTERVAL, DEFAULT_BACKUP_KEEP } from '@/lib/settings';

export const metadata: Metadata = { title: 'Backups · Plant Store' };

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** The folder's backups, or why they cannot be listed. */
async function readFolder(dir: string): Promise<{ files: BackupFile[]; problem: string | null }> {
  try {
    return { files: await listBackups(dir), problem: null };
  } catch (error) {
    return { files: [], problem: `The backup folder cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

export default async function BackupsPage() {
  await requireAdmin('/backups');
  const { backups } = engine().maintenance;
  if (!backups.supported) {
    return (
      <section className="card" aria-labelledby="backups-heading">
        <h1 id="backups-heading">Backups</h1>
        <p className="muted">
          This database is backed up and restored with its own tools, {backups.tools}, not by the server: the server takes no
          scheduled backups of it, and <span className="mono">npm run db -- backup</span> says what to run instead (see the
          operations manual, Backups on PostgreSQL). A copy holds everything in the store, password and token hashes included:
          keep it as safe as the server.
        </p>
      </section>
    );
  }
  let settings: ReturnType<typeof backupSettings> = null;
  let problem: string | null = null;
  try {
    settings = backupSettings();
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  const folder = settings ? await readFolder(settings.dir) : { files: [], problem: null };
  const status = backupStatus();

  return (
    <>
      <section className="card" aria-labelledby="backups-heading">
        <h1 id="backups-heading">Backups</h1>
        {settings ? (
          <p className="muted">
            The server copies the database into <span className="mono">{settings.dir}</span> every{' '}
            {settings.interval} and keeps the newest {settings.keep}. Each copy is checked
            before it is kept. A copy holds everything in the store, password and token hashes included: keep downloads as safe as
            the server.
          </p>
        ) : (
          <p className="muted">
            Scheduled backups are off. Set <span className="mono">BACKUP_DIR</span> (and, if you like,{' '}
            <span className="mono">BACKUP_INTERVAL</span>, default {DEFAULT_BACKUP_INTERVAL}, and <span className="mono">BACKUP_KEEP</span>,
            default {DEFAULT_BACKUP_KEEP}) and restart the server; <span className="mono">{operatorCommand('db', 'backup')}</span> takes one by hand.
          </p>
        )}
        <Alert>{problem ?? folder.problem}</Alert>
        {settings && (
          <p>
            Since the server started: {status.succeeded} {status.succeeded === 1 ? 'backup' : 'backups'} written
            {status.lastSuccessAt && (
              <>
                , the last <Timestamp iso={status.lastSuccessAt.toISOString()} precision="second" />
              </>
            )}
            ; {status.failed} failed
            {status.lastError && <> (the last: {status.lastError})</>}.
          </p>
        )}
      </section>

      {settings && (
        <section className="card" aria-labelledby="files-heading">
          <h2 id="files-heading">Files</h2>
          {folder.files.length === 0 ? (
            <p className="muted">No backups yet.</p>
          ) : (
            <DataTable labelledBy="files-heading" columns={['File', 'Written', 'Size', { hidden: 'Download' }]}>
              {folder.files.map((file) => (
                <tr key={file.name}>
                  <td className="mono">{file.name}</td>
                  <TimeCell iso={file.modifiedAt.toISOString()} precision="second" />
                  <td>{size(file.bytes)}</td>
                  <td>
                    <a href={`/backups/${file.name}`} download aria-label={`Download ${file.name}`}>
                      Download
                    </a>
                  </td>
                </tr>
              ))}
            </DataTable>
          )}
        </section>
      )}
    </>
  );
}
