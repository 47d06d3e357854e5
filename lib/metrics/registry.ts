// The process's metrics, in Prometheus's text format (GET /metrics, app/metrics/route.ts). One
// registry per process, through processWide: Next evaluates this module once per route bundle, and
// the production server (server/main.ts, bundled apart) records the request histogram, so every
// copy of this module must count into the same metric objects (prom-client itself is loaded once,
// from node_modules: next.config.js, scripts/build.mjs). Names follow the
// OpenTelemetry HTTP semantic conventions as its Prometheus exporter writes them; the app's own
// are prefixed plant_store_. docs/operations.md, Metrics, says what each one means.
import 'server-only';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { processWide } from '../process-wide';
import { settings } from '../settings';

/** The OpenTelemetry semantic conventions' buckets for HTTP durations, with two below their first (0.005 s), where the API's quickest answers fall. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

// Methods other than these are labelled _OTHER, as the conventions say, so a client cannot add series.
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY']);

/** Why a credential was refused: the Error kinds of 401, 403 and the failed-authentication 429, and a failed sign-in. */
export const AUTH_FAILURE_KINDS = [
  'missing_token',
  'invalid_token',
  'expired_token',
  'revoked_token',
  'account_disabled',
  'insufficient_scope',
  'too_many_failed_authentications',
  'sign_in',
] as const;
export type AuthFailureKind = (typeof AUTH_FAILURE_KINDS)[number];

/** What one webhook delivery attempt came to: delivered, failed with a retry scheduled, or failed for good. */
export const DELIVERY_OUTCOMES = ['succeeded', 'retrying', 'failed'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** What one attempt to send a message came to: sent, failed with a retry scheduled, or given up. */
export const MAIL_OUTCOMES = ['sent', 'retrying', 'failed'] as const;
export type MailOutcome = (typeof MAIL_OUTCOMES)[number];

export const BACKUP_OUTCOMES = ['success', 'failure'] as const;
export type BackupOutcome = (typeof BACKUP_OUTCOMES)[number];

/** Where a password attempt past its address's allowance was refused: at the server's door, before Next's router, or in the handler. */
export const PASSWORD_REFUSAL_PLACES = ['door', 'handler'] as const;

/** What a sign-in through the identity provider came to (lib/auth/oidc). */
export const OIDC_SIGN_IN_OUTCOMES = [
  'signed_in',
  'account_created',
  'provider_refused',
  'email_not_verified',
  'domain_not_allowed',
  'account_disabled',
  'try_again',
  'too_many_attempts',
  'unavailable',
] as const;
export type OidcSignInOutcome = (typeof OIDC_SIGN_IN_OUTCOMES)[number];

/** Whether a count of what a filter matches was kept from before (lib/plants/counts.ts). */
export const COUNT_LOOKUP_RESULTS = ['hit', 'miss'] as const;

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  // METRICS=off: nothing is recorded (npm run bench's metrics target, bench/run/metrics-comparison.ts,
  // measures what recording costs) and GET /metrics answers an empty exposition.
  const enabled = settings().METRICS;
  if (enabled) collectDefaultMetrics({ register: registry });
  const metrics = {
    registry,
    enabled,
    requestDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP server requests.',
      labelNames: ['http_request_method', 'http_route', 'http_response_status_code'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    webhookPending: new Gauge({
      name: 'plant_store_webhook_deliveries_pending',
      help: 'Webhook deliveries not yet delivered or given up (pending or being attempted), to enabled endpoints.',
      registers,
    }),
    countChangesUnfolded: new Gauge({
      name: 'plant_store_count_changes_unfolded',
      help: "Changes to the plants not yet folded into the counts behind GET /stats (PostgreSQL; always 0 on SQLite).",
      registers,
    }),
    countLookups: new Counter({
      name: 'plant_store_count_lookups_total',
      help: 'Counts of what a filter matches (X-Total-Count, the catalogue pages), by whether a count kept from before served (hit) or the plants were counted (miss).',
      labelNames: ['result'],
      registers,
    }),
    createGroups: new Histogram({
      name: 'plant_store_creates_per_transaction',
      help: 'Creates (POST /plants) stored together in one transaction on PostgreSQL: those that reached this instance in one turn of its event loop.',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 250],
      registers,
    }),
    longTransactions: new Histogram({
      name: 'plant_store_sqlite_long_transaction_seconds',
      help: "SQLite: how long each long transaction (a change of more than 100 plants, a batch's) held the file's write lock, from its start to its commit, the event loop running other requests between slices of its work. Empty on PostgreSQL.",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    plantAnalyses: new Counter({
      name: 'plant_store_plant_analyses_total',
      help: 'Times this instance gathered the planner\'s statistics on the plants table (ANALYZE, PostgreSQL) after writing a fifth of it (or 1,000 plants into a table never analyzed).',
      registers,
    }),
    webhookOldestPending: new Gauge({
      name: 'plant_store_webhook_oldest_pending_seconds',
      help: 'Age of the oldest of those deliveries, in seconds (0 when there is none).',
      registers,
    }),
    deliveryAttempts: new Counter({
      name: 'plant_store_webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts made by this instance, by outcome.',
      labelNames: ['outcome'],
      registers,
    }),
    rateLimited: new Counter({ name: 'plant_store_rate_limited_total', help: 'API requests refused with 429 for the caller\'s rate limit.', registers }),
    authFailures: new Counter({
      name: 'plant_store_auth_failures_total',
      help: 'Refused credentials: API requests answered 401, 403 or 429 for failed authentications, and failed sign-ins, by kind.',
      labelNames: ['kind'],
      registers,
    }),
    passwordAttemptsRefused: new Counter({
      name: 'plant_store_password_attempts_refused_total',
      help: "Sign-in, set-password and forgot-password attempts refused for the client address's allowance (PASSWORD_ATTEMPTS_PER_MINUTE, 429 42903): by the production server before Next's router (at=door), or in the route or action (at=handler).",
      labelNames: ['at'],
      registers,
    }),
    oidcSignIns: new Counter({
      name: 'plant_store_oidc_sign_ins_total',
      help: "Sign-ins through the identity provider that reached this instance's callback, by outcome: signed in to an account, a new account made, or why it was refused.",
      labelNames: ['outcome'],
      registers,
    }),
    oidcDiscoveries: new Counter({
      name: 'plant_store_oidc_discovery_fetches_total',
      help: "Reads of the identity provider's discovery document (kept an hour once read), by outcome.",
      labelNames: ['outcome'],
      registers,
    }),
    databaseBusy: new Counter({
      name: 'plant_store_db_busy_total',
      help: 'Requests answered 503 because the database stayed busy (SQLite locked) or did not answer (PostgreSQL unavailable).',
      registers,
    }),
    mailAttempts: new Counter({
      name: 'plant_store_mail_messages_total',
      help: 'Attempts to send a message (set-password links) by this instance, by outcome: sent, retrying (failed, retry scheduled) or failed (given up).',
      labelNames: ['outcome'],
      registers,
    }),
    mailWaiting: new Gauge({
      name: 'plant_store_mail_messages_waiting',
      help: 'Messages in the outbox not yet sent or given up (waiting or being sent).',
      registers,
    }),
    backups: new Counter({ name: 'plant_store_backups_total', help: 'Backups made by this instance, by outcome.', labelNames: ['outcome'], registers }),
    lastBackup: new Gauge({
      name: 'plant_store_last_backup_timestamp_seconds',
      help: 'When the last successful backup finished, in seconds since the epoch (0: none since this process started).',
      registers,
    }),
  };
  // Every label value known in advance starts at 0, so rate() and increase() see the first event.
  for (const outcome of DELIVERY_OUTCOMES) metrics.deliveryAttempts.inc({ outcome }, 0);
  for (const kind of AUTH_FAILURE_KINDS) metrics.authFailures.inc({ kind }, 0);
  for (const outcome of BACKUP_OUTCOMES) metrics.backups.inc({ outcome }, 0);
  for (const outcome of MAIL_OUTCOMES) metrics.mailAttempts.inc({ outcome }, 0);
  for (const result of COUNT_LOOKUP_RESULTS) metrics.countLookups.inc({ result }, 0);
  for (const at of PASSWORD_REFUSAL_PLACES) metrics.passwordAttemptsRefused.inc({ at }, 0);
  for (const outcome of OIDC_SIGN_IN_OUTCOMES) metrics.oidcSignIns.inc({ outcome }, 0);
  for (const outcome of ['success', 'failure']) metrics.oidcDiscoveries.inc({ outcome }, 0);
  return metrics;
}

const metrics = processWide('metrics', createMetrics);

/** Whether this process records metrics (METRICS=off: it does not). */
export const recording = metrics.enabled;

/**
 * One answered HTTP request (server/request-metrics.ts). `route` is the route template (such as
 * `/plants/{id}`), or null for a path no route answers: the label is then left out, as the
 * conventions ask, so the label's values stay bounded whatever paths clients send.
 */
export function recordRequest(method: string, route: string | null, status: number, seconds: number): void {
  if (!metrics.enabled) return;
  const http_request_method = KNOWN_METHODS.has(method) ? method : '_OTHER';
  metrics.requestDuration.observe(
    route === null ? { http_request_method, http_response_status_code: status } : { http_request_method, http_route: route, http_response_status_code: status },
    seconds,
  );
}

export function countRateLimited(): void {
  if (metrics.enabled) metrics.rateLimited.inc();
}

export function countAuthFailure(kind: AuthFailureKind): void {
  if (metrics.enabled) metrics.authFailures.inc({ kind });
}

export function countPasswordAttemptRefused(at: (typeof PASSWORD_REFUSAL_PLACES)[number]): void {
  if (metrics.enabled) metrics.passwordAttemptsRefused.inc({ at });
}

export function countOidcSignIn(outcome: OidcSignInOutcome): void {
  if (metrics.enabled) metrics.oidcSignIns.inc({ outcome });
}

export function countOidcDiscovery(outcome: 'success' | 'failure'): void {
  if (metrics.enabled) metrics.oidcDiscoveries.inc({ outcome });
}

export function countDatabaseBusy(): void {
  if (metrics.enabled) metrics.databaseBusy.inc();
}

export function countDeliveryAttempt(outcome: DeliveryOutcome): void {
  if (metrics.enabled) metrics.deliveryAttempts.inc({ outcome });
}

export function countMailOutcome(outcome: MailOutcome): void {
  if (metrics.enabled) metrics.mailAttempts.inc({ outcome });
}

/** The messages waiting in the outbox, sampled at scrape time; null when they could not be counted. */
export function setMailWaiting(waiting: number | null): void {
  metrics.mailWaiting.set(waiting ?? Number.NaN);
}

/** Inserts stored together in one transaction (lib/db/inserts-together.ts). */
export function recordCreateGroup(size: number): void {
  if (metrics.enabled) metrics.createGroups.observe(size);
}

/** A long transaction on SQLite, from its start to its commit or rollback (lib/db/sqlite/connection.ts). */
export function recordLongTransaction(seconds: number): void {
  if (metrics.enabled) metrics.longTransactions.observe(seconds);
}

/** The plants table analyzed after a load (lib/db/postgresql/plant-statistics.ts). */
export function countPlantAnalysis(): void {
  if (metrics.enabled) metrics.plantAnalyses.inc();
}

export function countCacheLookup(result: (typeof COUNT_LOOKUP_RESULTS)[number]): void {
  if (metrics.enabled) metrics.countLookups.inc({ result });
}

/** A backup finished at `at`, well or not: counted, and a success moves the last-backup time. */
export function recordBackup(outcome: BackupOutcome, at: Date): void {
  if (!metrics.enabled) return;
  metrics.backups.inc({ outcome });
  if (outcome === 'success') metrics.lastBackup.set(at.getTime() / 1000);
}

/** The webhook backlog, sampled at scrape time (lib/metrics/scrape.ts); null when it could not be read. */
export function setWebhookBacklog(backlog: { pending: number; oldestCreatedAt: Date | null } | null, now: Date): void {
  if (backlog === null) {
    // Unknown, rather than a stale figure or a reassuring 0: NaN, which no alert's comparison passes.
    metrics.webhookPending.set(Number.NaN);
    metrics.webhookOldestPending.set(Number.NaN);
    return;
  }
  metrics.webhookPending.set(backlog.pending);
  metrics.webhookOldestPending.set(backlog.oldestCreatedAt ? Math.max(0, (now.getTime() - backlog.oldestCreatedAt.getTime()) / 1000) : 0);
}

/** The changes not yet folded into the catalogue's counts, sampled at scrape time; null when they could not be read. */
export function setCountChangesUnfolded(changes: number | null): void {
  metrics.countChangesUnfolded.set(changes ?? Number.NaN);
}

/** The Content-Type of the exposition: Prometheus's text format, version 0.0.4. */
export const EXPOSITION_CONTENT_TYPE = metrics.registry.contentType;

/** Everything recorded, in Prometheus's text format. */
export function exposition(): Promise<string> {
  return metrics.registry.metrics();
}
