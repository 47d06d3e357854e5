// What GET /metrics answers: the process's metrics, with the webhook backlog read from the database
// at that moment (every instance reads the same shared outbox on PostgreSQL, so each reports the
// whole backlog; alert on max() across instances, not sum()). Off (METRICS=off), nothing at all.
import 'server-only';
import { engine } from '../db/engine';
import { log } from '../log';
import { exposition, recording, setWebhookBacklog } from './registry';

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
  return exposition();
}
