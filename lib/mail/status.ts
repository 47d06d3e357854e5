// What the mail outbox holds, for GET /metrics.
import 'server-only';
import { db } from '../db/client';

/** Messages not yet sent or given up. */
export function waitingMail(): Promise<number> {
  return db().mailMessage.count({ where: { status: { in: ['pending', 'sending'] } } });
}
