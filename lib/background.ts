// The work a long-running server process does besides answering requests: delivering webhooks,
// sending email, pruning old records and taking scheduled backups. Started once per process by instrumentation.ts.
import 'server-only';
import { startBackupSchedule } from './backups/schedule';
import { engine } from './db/engine';
import { log } from './log';
import { startMailSender } from './mail/sender';
import { pruneDaily } from './retention';
import { startDispatcher } from './webhooks/dispatcher';

/**
 * Marks this process as a server of the database for as long as it lives, so that
 * `npm run db -- restore` refuses to replace it underneath (lib/db/sqlite/maintenance.ts).
 */
export function holdDatabase(): void {
  try {
    engine().maintenance.holdAsServer();
  } catch (error) {
    log.error('could not mark the database as served: a restore would not see this server', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

export async function startBackgroundWork(): Promise<void> {
  try {
    await startDispatcher();
    startMailSender();
    pruneDaily();
  } catch (error) {
    log.error('background work could not start: webhooks are not delivered and old records not pruned', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  // Apart from the above: a backup that cannot start never stops webhooks or pruning, nor they it.
  await startBackupSchedule();
}
