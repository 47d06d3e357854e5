// The dispatcher: delivers the outbox's events, at least once, in order per plant per endpoint.
// Each cycle fans new events out into deliveries, claims the due ones, and attempts each (send.ts)
// signed with the endpoint's secrets, which are opened only here (secret-cipher.ts); a failed
// attempt is retried on WEBHOOK_RETRY_SCHEDULE with jitter, and marked failed after the last
// retry. On Node it runs inside the server process (instrumentation.ts), woken right after a
// local commit and polling for the rest (other instances' events, retries that fall due), on the
// loop of lib/poll-loop.ts. On
// Vercel, deliverDue() runs after a response and from the cron route.
import 'server-only';
import { log } from '../log';
import { countDeliveryAttempt } from '../metrics/registry';
import { pollLoop } from '../poll-loop';
import { processWide } from '../process-wide';
import { retrySchedule, withJitter } from './config';
import { engine } from '../db/engine';
import type { AttemptOutcome, ClaimedDelivery } from '../db/stores';
import { currentDate } from '../shared/clock';
import { recipientsOf } from './recipients';
import { signingSecrets, UnreadableSecretError } from './secret-cipher';
import { attemptDelivery, type AttemptResult } from './send';

// Attempts in flight at once, per process.
const MAX_IN_FLIGHT = 32;
// Events fanned out per cycle. On SQLite a cycle's fan-out is one synchronous transaction of an
// insert per event and endpoint, which holds the event loop only briefly (docs/performance.md#webhooks).
const FAN_OUT_BATCH = 100;
// A claimed delivery is this process's for this long; past it, another may take it over. Well
// beyond an attempt's 10 s, so a live attempt is never taken twice.
const LEASE_MS = 60_000;

type State = {
  inFlight: Set<Promise<void>>;
  schedule: number[];
};

// How long the dispatcher leaves a committed event before fanning it out into deliveries: not at all.
// Only a test sets it, by preloading test/support/dispatch-hold.mjs into its server, to make the
// moment between a commit and its delivery as long as it needs (to kill the server there); as with
// the clock (lib/shared/clock.ts), nothing in production does: no setting, no route.
const hold = processWide('webhook-dispatch-hold', () => ({ ms: 0 }));

const state = processWide('webhook-dispatcher', (): State => ({ inFlight: new Set(), schedule: [] }));

// In the Node server process: the loop that runs the cycles (lib/poll-loop.ts).
const loop = pollLoop('webhook-dispatcher');

/** What an attempt leads to: done, a retry after the schedule's next delay, or failed for good. */
export function outcomeOf(result: AttemptResult, delivery: ClaimedDelivery, schedule: number[], now = currentDate()): AttemptOutcome {
  const recorded = { statusCode: result.statusCode, durationMs: result.durationMs, error: result.error };
  if (result.ok) return { status: 'succeeded', retries: delivery.retries, nextAttemptAt: now, ...recorded };
  if (delivery.retries < schedule.length) {
    const nextAttemptAt = new Date(now.getTime() + withJitter(schedule[delivery.retries]));
    return { status: 'pending', retries: delivery.retries + 1, nextAttemptAt, ...recorded };
  }
  return { status: 'failed', retries: delivery.retries, nextAttemptAt: now, ...recorded };
}

/** The attempt, unless the endpoint's secret cannot be opened to sign it: then that is its failure, retried like any other. */
function attemptSigned(delivery: ClaimedDelivery): Promise<AttemptResult> {
  let secrets: string[];
  try {
    secrets = signingSecrets(delivery);
  } catch (error) {
    if (!(error instanceof UnreadableSecretError)) throw error;
    return Promise.resolve({ ok: false, statusCode: null, durationMs: 0, error: error.message });
  }
  return attemptDelivery(
    { url: delivery.url, secrets },
    { id: delivery.messageId, payload: delivery.payload, traceparent: delivery.traceparent },
    { id: delivery.id, endpointId: delivery.endpointId, attempt: delivery.attempts },
  );
}

async function attempt(delivery: ClaimedDelivery): Promise<void> {
  const result = await attemptSigned(delivery);
  const outcome = outcomeOf(result, delivery, state.schedule);
  await engine().deliveries.complete(delivery, outcome, currentDate());
  countDeliveryAttempt(outcome.status === 'pending' ? 'retrying' : outcome.status);
  if (outcome.status !== 'succeeded') {
    (outcome.status === 'failed' ? log.error : log.warn)(outcome.status === 'failed' ? 'webhook delivery failed for good' : 'webhook attempt failed', {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      messageId: delivery.messageId,
      attempt: delivery.attempts,
      statusCode: result.statusCode,
      error: result.error,
      nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt.toISOString() : undefined,
    });
  }
}

function start(delivery: ClaimedDelivery, then: () => void): void {
  const running = attempt(delivery)
    .catch((error: unknown) =>
      log.error('webhook attempt could not be recorded', { deliveryId: delivery.id, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => {
      state.inFlight.delete(running);
      then();
    });
  state.inFlight.add(running);
}

/** One pass: fan out new events, claim what is due and start it. Says whether more may be waiting. */
async function cycle(onAttemptDone: () => void): Promise<{ claimed: number; more: boolean }> {
  const store = engine().deliveries;
  const now = currentDate();
  const fanned = await store.fanOut({ limit: FAN_OUT_BATCH, madeBy: new Date(now.getTime() - hold.ms), now, recipients: recipientsOf });
  const free = MAX_IN_FLIGHT - state.inFlight.size;
  const claimed = free > 0 ? await store.claim({ limit: free, now, leaseUntil: new Date(now.getTime() + LEASE_MS) }) : [];
  for (const delivery of claimed) start(delivery, onAttemptDone);
  return { claimed: claimed.length, more: fanned === FAN_OUT_BATCH || (free > 0 && claimed.length === free) };
}

// ----- In the Node server process

/** Starts the dispatcher in this server process; commits in it wake it at once (wake.ts). */
export async function startDispatcher(): Promise<void> {
  state.schedule = retrySchedule();
  // Attempts a previous process had claimed when it died are taken again once their lease lapses.
  await engine().deliveries.requeueExpired(currentDate()).catch(() => 0);
  loop.start({
    // A finished attempt wakes the loop: it may free the next event of its plant, or a slot.
    pass: async () => (await cycle(() => loop.wake())).more,
    nextDueAt: () => engine().deliveries.nextDueAt(),
    failure: 'webhook dispatcher failed; retrying in a second',
  });
}

/** Wakes the dispatcher this process runs, if it runs one; whether it did. */
export const wakeRunningDispatcher = (): boolean => loop.wake();

// ----- Serverless: after a response, and from the cron route

/**
 * Delivers what is due until nothing is or `budgetMs` is spent, then waits for the attempts it
 * started. For platforms without a long-running process (Vercel).
 */
export async function deliverDue({ budgetMs }: { budgetMs: number }): Promise<{ attempts: number }> {
  state.schedule = retrySchedule();
  const deadline = Date.now() + budgetMs;
  let attempts = 0;
  let progress: () => void = () => {};
  await engine().deliveries.requeueExpired(currentDate());
  while (Date.now() < deadline) {
    const { claimed, more } = await cycle(() => progress());
    attempts += claimed;
    if (!more && state.inFlight.size === 0) break;
    // Wait for an attempt to finish (it may unblock the next event of its plant) or for a claim slot.
    await new Promise<void>((resolve) => {
      progress = resolve;
      if (more && state.inFlight.size < MAX_IN_FLIGHT) resolve();
    });
  }
  await Promise.all(state.inFlight);
  return { attempts };
}
