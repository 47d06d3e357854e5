// The scheduled backups' settings: BACKUP_DIR turns them on, BACKUP_INTERVAL says how often,
// BACKUP_KEEP how many files stay. Read apart from the schedule so npm start can check them
// without opening the database.
import path from 'node:path';
import { parseDuration } from '../shared/duration';

export const DEFAULT_BACKUP_INTERVAL = '24h';
export const DEFAULT_BACKUP_KEEP = 7;
// Below this, one backup could still be running when the next is due.
const MIN_INTERVAL_MS = 1000;

export type BackupSettings = { dir: string; intervalMs: number; keep: number };

/** BACKUP_DIR as an absolute path, or null: scheduled backups are off. */
export function backupDir(): string | null {
  const configured = process.env.BACKUP_DIR?.trim();
  return configured ? path.resolve(/* turbopackIgnore: true */ process.cwd(), configured) : null;
}

/** The schedule, or null when BACKUP_DIR is unset; throws on a malformed BACKUP_INTERVAL or BACKUP_KEEP. */
export function backupSettings(): BackupSettings | null {
  const intervalText = process.env.BACKUP_INTERVAL?.trim() || DEFAULT_BACKUP_INTERVAL;
  const intervalMs = parseDuration(intervalText);
  if (intervalMs === null || intervalMs < MIN_INTERVAL_MS) {
    throw new Error(`BACKUP_INTERVAL must be a duration of at least 1s, such as 24h, 6h or 30m (units ms, s, m, h, d), got "${intervalText}"`);
  }
  const keepText = process.env.BACKUP_KEEP?.trim() || String(DEFAULT_BACKUP_KEEP);
  const keep = Number(keepText);
  if (!/^\d+$/.test(keepText) || keep < 1) throw new Error(`BACKUP_KEEP must be a whole number of files (1 or more), got "${keepText}"`);
  const dir = backupDir();
  return dir ? { dir, intervalMs, keep } : null;
}
