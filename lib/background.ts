// The work a long-running server process does besides answering requests: delivering webhooks and
// pruning old records. Started once per process by instrumentation.ts.
import 'server-only';
import { log } from './log';
import { pruneDaily } from './retention';
import { startDispatcher } from './webhooks/dispatcher';

export async function startBackgroundWork(): Promise<void> {
  try {
    await startDispatcher();
    pruneDaily();
  } catch (error) {
    log.error('background work could not start: webhooks are not delivered and old records not pruned', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
