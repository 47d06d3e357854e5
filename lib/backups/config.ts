// The scheduled backups' settings as the backups use them: BACKUP_DIR turns them on, BACKUP_INTERVAL
// says how often, BACKUP_KEEP how many files stay (lib/settings reads and checks each).
import path from 'node:path';
import { settings } from '../settings';

export type BackupSettings = { dir: string; intervalMs: number; interval: string; keep: number };

/** BACKUP_DIR as an absolute path (relative to the working directory), or null: scheduled backups are off. */
export function backupDir(): string | null {
  const configured = settings().BACKUP_DIR;
  return configured ? path.resolve(/* turbopackIgnore: true */ process.cwd(), configured) : null;
}

/** The schedule, or null when BACKUP_DIR is unset; throws the SettingsError of a malformed BACKUP_INTERVAL or BACKUP_KEEP. */
export function backupSettings(): BackupSettings | null {
  const { BACKUP_INTERVAL, BACKUP_KEEP } = settings();
  const dir = backupDir();
  return dir ? { dir, intervalMs: BACKUP_INTERVAL.ms, interval: BACKUP_INTERVAL.text, keep: BACKUP_KEEP } : null;
}
