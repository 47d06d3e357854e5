// How the server's scheduled backups have gone, for as long as the process lives: counts of
// successes and failures and the time of the last success. noteBackupOutcome is the one place a
// backup's outcome is recorded, so whatever reports it (a metric, the /backups page) reads it here.
import 'server-only';
import { recordBackup } from '../metrics/registry';
import { processWide } from '../process-wide';

export type BackupStatus = {
  succeeded: number;
  failed: number;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  lastError: string | null;
};

const status = processWide(
  'backup-status',
  (): BackupStatus => ({ succeeded: 0, failed: 0, lastSuccessAt: null, lastFailureAt: null, lastError: null }),
);

export type BackupOutcome = { ok: true; at: Date; file: string; bytes: number; durationMs: number } | { ok: false; at: Date; error: string };

/** Records one scheduled backup's outcome, here and in the metrics (plant_store_backups_total). */
export function noteBackupOutcome(outcome: BackupOutcome): void {
  recordBackup(outcome.ok ? 'success' : 'failure', outcome.at);
  if (outcome.ok) {
    status.succeeded++;
    status.lastSuccessAt = outcome.at;
  } else {
    status.failed++;
    status.lastFailureAt = outcome.at;
    status.lastError = outcome.error;
  }
}

/** A copy of the counts so far. */
export function backupStatus(): BackupStatus {
  return { ...status };
}
