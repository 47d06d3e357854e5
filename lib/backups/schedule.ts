// Scheduled backups, in a long-running server with BACKUP_DIR set: one every BACKUP_INTERVAL into
// that folder, keeping the newest BACKUP_KEEP. The first is due one interval after the newest backup
// already there (at once when there is none), so restarts neither skip backups nor pile them up. A
// failed backup is logged and counted (noteBackupOutcome), and the server serves on regardless.
// Where the database's own tools take its backups (PostgreSQL's pg_dump), no schedule starts: the
// start says so, and what to use instead.
import 'server-only';
import { engine } from '../db/engine';
import { log } from '../log';
import { processWide } from '../process-wide';
import { inSpan } from '../tracing/spans';
import type { BackupStore } from '../db/stores';
import { backupSettings, type BackupSettings } from './config';
import { listBackups, newBackupPath, pruneBackups } from './files';
import { noteBackupOutcome } from './status';

// setTimeout's longest delay (about 24.8 days); a longer interval waits in steps of it.
const MAX_TIMER_MS = 2 ** 31 - 1;

const schedule = processWide('backup-schedule', () => ({ timer: undefined as NodeJS.Timeout | undefined, started: false, stopped: false }));

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One scheduled backup: written, checked, the old ones pruned; its outcome noted and logged. */
async function runScheduledBackup(backups: BackupStore, settings: BackupSettings): Promise<void> {
  const at = new Date();
  const file = newBackupPath(settings.dir, at);
  try {
    // Each scheduled backup is a trace of its own (with tracing on): its duration, its size, and a
    // failure marked on it, for an operator who watches traces rather than the log.
    const { bytes, pruned } = await inSpan('backup.scheduled', { root: true, attributes: { 'plant_store.backup.file': file } }, async (span) => {
      const written = await backups.backup(file);
      const removed = await pruneBackups(settings.dir, settings.keep);
      span?.setAttributes({ 'plant_store.backup.bytes': written.bytes, 'plant_store.backup.pruned': removed.length });
      return { bytes: written.bytes, pruned: removed };
    });
    const durationMs = Date.now() - at.getTime();
    noteBackupOutcome({ ok: true, at, file, bytes, durationMs });
    log.info('backup written', { file, bytes, durationMs, pruned });
  } catch (error) {
    noteBackupOutcome({ ok: false, at, error: messageOf(error) });
    log.error('backup failed', { dir: settings.dir, error: messageOf(error) });
  }
}

function runAt(backups: BackupStore, settings: BackupSettings, due: number): void {
  if (schedule.stopped) return;
  const delay = Math.max(0, due - Date.now());
  schedule.timer = setTimeout(
    () => {
      if (delay > MAX_TIMER_MS) return runAt(backups, settings, due);
      void runScheduledBackup(backups, settings).then(() => runAt(backups, settings, Date.now() + settings.intervalMs));
    },
    Math.min(delay, MAX_TIMER_MS),
  );
  schedule.timer.unref();
}

/** When the first backup is due: one interval after the newest there, or now. */
async function firstDue(settings: BackupSettings): Promise<number> {
  try {
    const [newest] = await listBackups(settings.dir);
    return newest ? newest.modifiedAt.getTime() + settings.intervalMs : Date.now();
  } catch {
    return Date.now(); // An unreadable folder: the backup itself says why, and is counted.
  }
}

/** Stops the schedule (on SIGTERM or SIGINT): no backup starts after this. */
export function stopBackupSchedule(): void {
  schedule.stopped = true;
  clearTimeout(schedule.timer);
}

/** In a long-running server: starts the schedule when BACKUP_DIR is set (once per process). */
export async function startBackupSchedule(): Promise<void> {
  if (schedule.started) return;
  schedule.started = true;
  let settings: BackupSettings | null;
  try {
    settings = backupSettings();
  } catch (error) {
    // npm start refuses these settings; a server started otherwise says so and counts a failure.
    noteBackupOutcome({ ok: false, at: new Date(), error: messageOf(error) });
    log.error('scheduled backups could not start', { error: messageOf(error) });
    return;
  }
  if (!settings) return;
  const { backups } = engine().maintenance;
  if (!backups.supported) {
    log.warn('scheduled backups off: this database is backed up with its own tools', { dir: settings.dir, tools: backups.tools, hint: backups.backupHint });
    return;
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, stopBackupSchedule);
  log.info('scheduled backups on', { dir: settings.dir, intervalMs: settings.intervalMs, keep: settings.keep });
  runAt(backups, settings, await firstDue(settings));
}
