// What GET /metrics answers: the process's metrics, with the webhook backlog and the changes not yet
// folded into the catalogue's counts read from the database at that moment (every instance reads the
// same tables on PostgreSQL, so each reports the whole figure; alert on max() across instances, not
// sum()). Off (METRICS=off), nothing at all.
import 'server-only';
import { engine } from '../db/engine';
import { log } from '../log';
import { waitingMail } from '../mail/status';
import { exposition, recording, setCountChangesUnfolded, setMailWaiting, setWebhookBacklog } from './registry';

export async function scrape(now = new Date()): Promise<string> {
  if (!recording) return '';
  let backlog = null;
  try {
    backlog = await engine().deliveries.backlog();
  } catch (error) {
    // The rest is still worth having when the database does not answer (plant_store_db_busy_total among it).
    log.warn('metrics: the webhook backlog could not be read', { error: error instanceof Error ? error.message : String(error) });
  }
  setWebhookBacklog(backlog, now);
  let unfolded = null;
  try {
    unfolded = await engine().plants.unfoldedCountChanges();
  } catch (error) {
    log.warn('metrics: the unfolded count changes could not be read', { error: error instanceof Error ? error.message : String(error) });
  }
  setCountChangesUnfolded(unfolded);
  let waiting = null;
  try {
    waiting = await waitingMail();
  } catch (error) {
    log.warn('metrics: the mail outbox could not be read', { error: error instanceof Error ? error.message : String(error) });
  }
  setMailWaiting(waiting);
  return exposition();
}
