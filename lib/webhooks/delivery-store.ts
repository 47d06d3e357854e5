// The dispatcher's statements, per engine: fan events out into deliveries, claim due deliveries,
// record each attempt's outcome. SQLite runs them as prepared statements on the API's own
// connection, in synchronous transactions that never hold the file's lock across an await;
// PostgreSQL through Prisma, claiming with FOR UPDATE SKIP LOCKED so instances never take the same
// delivery at the same time.
import 'server-only';
import { dbEngine } from '../db/client';
import { postgresqlDeliveryStore } from './postgresql-deliveries';
import { sqliteDeliveryStore } from './sqlite-deliveries';

/** A delivery taken for one attempt, with what the attempt needs. `attempts` counts this one. */
export type ClaimedDelivery = {
  id: string;
  attempts: number;
  retries: number;
  endpointId: string;
  url: string;
  secret: string;
  messageId: string;
  payload: string;
};

/** What an attempt leaves: succeeded, failed for good, or pending a retry at `nextAttemptAt`. */
export type AttemptOutcome = {
  status: 'succeeded' | 'failed' | 'pending';
  retries: number;
  nextAttemptAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
};

export type DeliveryStore = {
  /**
   * Turns up to `limit` events made no later than `madeBy`, oldest first, into one delivery per
   * endpoint that wants them; returns how many events it took. One fan-out at a time across
   * instances, so each plant's deliveries are made in the order of its events.
   */
  fanOut(options: { limit: number; madeBy: Date; now: Date }): Promise<number>;
  /** Takes up to `limit` due deliveries until `leaseUntil`; none whose plant has an earlier delivery still open. */
  claim(options: { limit: number; now: Date; leaseUntil: Date }): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome, unless the delivery was taken again meanwhile (its lease ran out). */
  complete(delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<void>;
  /** Deliveries whose claimer's lease ran out (it died) become due again. */
  requeueExpired(now: Date): Promise<number>;
  /** When the soonest pending delivery is due; null when none is. */
  nextDueAt(): Promise<Date | null>;
};

export function deliveryStore(): DeliveryStore {
  return dbEngine() === 'sqlite' ? sqliteDeliveryStore : postgresqlDeliveryStore;
}

type EndpointChoice = { id: string; events: string; enabled: boolean; createdAt: Date };
type EventToFanOut = { type: string; endpointId: string | null; createdAt: Date };

/**
 * Who gets an event: a test event goes to its one endpoint; any other to every enabled endpoint
 * subscribed to its type that existed when it happened (an endpoint hears of changes made after
 * it was created, not before; a disabled one hears of none made while it is disabled).
 */
export function recipientsOf(event: EventToFanOut, endpoints: EndpointChoice[]): string[] {
  if (event.endpointId) return endpoints.some((endpoint) => endpoint.id === event.endpointId) ? [event.endpointId] : [];
  return endpoints
    .filter((endpoint) => endpoint.enabled && endpoint.createdAt <= event.createdAt && endpoint.events.split(',').includes(event.type))
    .map((endpoint) => endpoint.id);
}
