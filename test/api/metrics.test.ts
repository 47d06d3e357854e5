// GET /metrics: Prometheus's text format, behind the metrics:read scope, on each engine. The shared
// server answers /plants directly; a server of this file's own sends everything through Next's
// router (API_DIRECT_ROUTES=off), with a small rate limit and a webhook endpoint whose receiver is
// down, so its counts start from nothing and can be held exactly.
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { createOn, expectError, request, sharedServer, uniqueId, type Server } from '../support/api';
import { awayFromWindowEnd } from '../support/clock';
import { tokenIn } from '../support/database';
import { test as base } from '../support/fixtures';
import { freePort } from '../support/server';
import { signInOn } from '../support/sign-in';
import { deliveriesIn, endpointIn } from '../support/webhooks';

const FAMILIES = [
  'http_server_request_duration_seconds histogram',
  'plant_store_webhook_deliveries_pending gauge',
  'plant_store_webhook_oldest_pending_seconds gauge',
  'plant_store_count_changes_unfolded gauge',
  'plant_store_count_lookups_total counter',
  'plant_store_creates_per_transaction histogram',
  'plant_store_sqlite_long_transaction_seconds histogram',
  'plant_store_plant_analyses_total counter',
  'plant_store_webhook_delivery_attempts_total counter',
  'plant_store_rate_limited_total counter',
  'plant_store_auth_failures_total counter',
  'plant_store_password_attempts_refused_total counter',
  'plant_store_db_busy_total counter',
  'plant_store_backups_total counter',
  'plant_store_last_backup_timestamp_seconds gauge',
  'process_resident_memory_bytes gauge',
  'nodejs_eventloop_lag_seconds gauge',
  'nodejs_heap_size_used_bytes gauge',
  'nodejs_gc_duration_seconds histogram',
];

type Labels = Record<string, string>;

/** The samples of `name` in an exposition, each with its labels. */
function samplesOf(text: string, name: string): { labels: Labels; value: number }[] {
  const found: { labels: Labels; value: number }[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const labels: Labels = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    found.push({ labels, value: Number(match[3]) });
  }
  return found;
}

/** The value of the one sample of `name` with exactly `labels` (0 when there is none yet). */
function valueOf(text: string, name: string, labels: Labels = {}): number {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const matching = samplesOf(text, name).filter((sample) => JSON.stringify(Object.entries(sample.labels).sort()) === wanted);
  expect(matching.length, `${name} ${wanted}`).toBeLessThanOrEqual(1);
  return matching[0]?.value ?? 0;
}

const requests = (text: string, method: string, route: string, status: number) =>
  valueOf(text, 'http_server_request_duration_seconds_count', { http_request_method: method, http_route: route, http_response_status_code: String(status) });

/** `server`'s metrics, read with `token` (one with metrics:read). */
async function scrape(server: Server, token: string) {
  const answer = await request(server, '/metrics', { token });
  expect(answer.status, answer.text).toBe(200);
  return answer.text;
}

describe('GET /metrics on the shared server (the direct path)', () => {
  let token: string;

  beforeAll(async () => {
    token = (await createApiToken({ name: 'metrics', scopes: ['metrics:read'] }, OPERATOR_COMMAND)).token;
  });

  it('needs a token with metrics:read: 401 without one, 403 with one that lacks it', async () => {
    expectError(await request(sharedServer(), '/metrics'), 401, 40101);
    const plantsOnly = (await createApiToken({ name: 'no metrics', scopes: ['plants:read', 'plants:write'] }, OPERATOR_COMMAND)).token;
    const refused = await request(sharedServer(), '/metrics', { token: plantsOnly });
    expectError(refused, 403, 40301, 'This token lacks the scope metrics:read, which this operation needs');
  });

  it('answers Prometheus text with every family: HTTP, webhooks, limits, credentials, database, backups, process and Node.js', async () => {
    const answer = await request(sharedServer(), '/metrics', { token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    for (const family of FAMILIES) expect(answer.text).toContain(`\n# TYPE ${family}\n`);
    expect(valueOf(answer.text, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 2 ** 20);
  });

  it('counts a POST /plants answered directly under its route, and a raw path under its template', async () => {
    const before = await scrape(sharedServer(), token);
    const created = await request(sharedServer(), '/plants', { method: 'POST', token: (await createApiToken({ name: 'creator' }, OPERATOR_COMMAND)).token, body: `{"id": ${uniqueId()}, "name": "Counted"}` });
    expect(created.status).toBe(200);
    expect((await request(sharedServer(), '/plants/123', { token: (await createApiToken({ name: 'reader' }, OPERATOR_COMMAND)).token })).status).toBe(404);
    const after = await scrape(sharedServer(), token);
    expect(requests(after, 'POST', '/plants', 200) - requests(before, 'POST', '/plants', 200)).toBe(1);
    expect(requests(after, 'GET', '/plants/{id}', 404) - requests(before, 'GET', '/plants/{id}', 404)).toBe(1);
    // The scrape before this one is counted too, under its own route.
    expect(requests(after, 'GET', '/metrics', 200) - requests(before, 'GET', '/metrics', 200)).toBe(1);
    const durations = samplesOf(after, 'http_server_request_duration_seconds_count');
    expect(durations.map((sample) => sample.labels.http_route)).not.toContain('/plants/123');
  });

  it('labels a path no route answers without a route, so clients cannot add series, and counts pages', async () => {
    const before = await scrape(sharedServer(), token);
    const unknown = `/no-such-page-${uniqueId()}`;
    const missing = await fetch(`${sharedServer().url}${unknown}`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
    const login = await fetch(`${sharedServer().url}/login`, { redirect: 'manual' });
    await login.arrayBuffer();
    // A request is counted once its answer has been handed to the socket, which the client can
    // see before the server's event loop has: the counts are awaited, with a deadline.
    const unrouted = (text: string) => valueOf(text, 'http_server_request_duration_seconds_count', { http_request_method: 'GET', http_response_status_code: '404' });
    const logins = (text: string) => requests(text, 'GET', '/login', login.status);
    const counted = async () => {
      const text = await scrape(sharedServer(), token);
      return { unrouted: unrouted(text) - unrouted(before), logins: logins(text) - logins(before), unknownNamed: text.includes(unknown) };
    };
    await expect.poll(counted, { timeout: 5_000 }).toEqual({ unrouted: 1, logins: 1, unknownNamed: false });
  });

  it('counts each count of what a filter matches as kept from before (hit) or counted (miss)', async () => {
    const plantsToken = (await createApiToken({ name: 'counter' }, OPERATOR_COMMAND)).token;
    const tag = `lookups-${uniqueId()}`;
    const lookups = async () => {
      const text = await scrape(sharedServer(), token);
      return { hit: valueOf(text, 'plant_store_count_lookups_total', { result: 'hit' }), miss: valueOf(text, 'plant_store_count_lookups_total', { result: 'miss' }) };
    };
    const count = async () => {
      const answer = await request(sharedServer(), `/plants?tag=${tag}&count=true`, { token: plantsToken });
      expect(answer.status, answer.text).toBe(200);
      return answer.headers.get('x-total-count');
    };
    const before = await lookups();
    expect(await count()).toBe('0');
    expect(await count()).toBe('0');
    expect(await lookups()).toEqual({ hit: before.hit + 1, miss: before.miss + 1 });
    expect((await request(sharedServer(), '/plants', { method: 'POST', token: plantsToken, body: `{"id": ${uniqueId()}, "name": "Looked up", "tag": "${tag}"}` })).status).toBe(200);
    expect(await count()).toBe('1');
    expect(await lookups()).toEqual({ hit: before.hit + 1, miss: before.miss + 2 });
  });

  it('counts a refused credential by kind', async () => {
    const before = await scrape(sharedServer(), token);
    expectError(await request(sharedServer(), '/plants', { token: 'pst_not-a-token' }), 401, 40102);
    const after = await scrape(sharedServer(), token);
    const invalid = (text: string) => valueOf(text, 'plant_store_auth_failures_total', { kind: 'invalid_token' });
    expect(invalid(after) - invalid(before)).toBe(1);
  });
});

// Above the scrapes the tests through Next's router make (seven), so only their burst is refused.
const LIMIT = 10;

// A server of the file's own that sends everything through Next's router, with a small rate limit
// and a webhook endpoint whose receiver is down, and its tokens: one to create with, the
// scraper's, and one for the burst.
const test = base.extend('routed', { scope: 'file' }, async ({ ownDatabase, startFileServer }) => {
  const unreachable = `http://127.0.0.1:${await freePort()}/hooks`;
  // Nothing listens on that port: every attempt fails, and the first retry is an hour away.
  const [, { token }, { token: scraperToken }, { token: busy }] = await Promise.all([
    endpointIn(ownDatabase.url, unreachable),
    tokenIn(ownDatabase.url, 'next'),
    tokenIn(ownDatabase.url, 'scraper', ['metrics:read']),
    tokenIn(ownDatabase.url, 'busy'),
  ]);
  const server = await startFileServer({
    database: ownDatabase,
    env: { API_DIRECT_ROUTES: 'off', RATE_LIMIT_PER_MINUTE: String(LIMIT), WEBHOOK_ALLOW_PRIVATE_URLS: '1', WEBHOOK_RETRY_SCHEDULE: '1h' },
  });
  return { server, token, scraperToken, busy };
});

describe("GET /metrics through Next's router, with a rate limit and a webhook receiver that is down", () => {
  test("counts a POST /plants through Next's router under its route; the pending deliveries and their age show the receiver is down", async ({ routed }) => {
    const { server, token } = routed;
    const before = await scrape(routed.server, routed.scraperToken);
    expect(valueOf(before, 'plant_store_webhook_deliveries_pending')).toBe(0);
    expect(valueOf(before, 'plant_store_webhook_oldest_pending_seconds')).toBe(0);
    expect((await createOn(server, token, `{"id": ${uniqueId()}, "name": "Through Next"}`)).status).toBe(200);
    const after = await scrape(routed.server, routed.scraperToken);
    expect(requests(after, 'POST', '/plants', 200) - requests(before, 'POST', '/plants', 200)).toBe(1);

    // The dispatcher tries once, fails, and schedules the retry: the delivery stays pending. Waited
    // for in the database, so the scrapes stay within the scraper's rate limit.
    await expect
      .poll(
        async () => {
          const [delivery] = await deliveriesIn(server.database);
          return { status: delivery?.status, attempts: Number(delivery?.attempts), failed: delivery?.lastError != null };
        },
        { timeout: 10_000, interval: 100 },
      )
      .toEqual({ status: 'pending', attempts: 1, failed: true });
    const failed = await scrape(routed.server, routed.scraperToken);
    expect(valueOf(failed, 'plant_store_webhook_delivery_attempts_total', { outcome: 'retrying' })).toBe(1);
    expect(valueOf(failed, 'plant_store_webhook_delivery_attempts_total', { outcome: 'succeeded' })).toBe(0);
    expect(valueOf(failed, 'plant_store_webhook_deliveries_pending')).toBe(1);
    const age = valueOf(failed, 'plant_store_webhook_oldest_pending_seconds');
    expect(age).toBeGreaterThan(0);
    expect(age).toBeLessThan(60);
  });

  test('counts a failed sign-in', async ({ routed }) => {
    const before = await scrape(routed.server, routed.scraperToken);
    const refused = await signInOn(routed.server, `nobody-${uniqueId()}@example.com`, 'not the password');
    expect(refused.session).toBeNull();
    const signIns = (text: string) => valueOf(text, 'plant_store_auth_failures_total', { kind: 'sign_in' });
    expect(signIns(await scrape(routed.server, routed.scraperToken)) - signIns(before)).toBe(1);
  });

  test('counts a request refused for the rate limit', async ({ routed }) => {
    const { server, busy } = routed;
    // Windows are whole minutes: the burst starts early enough in one to end in the same one (the
    // server's clock moved to a fresh window when it is near the end of one).
    await awayFromWindowEnd(5_000, server.clock);
    const before = await scrape(routed.server, routed.scraperToken);
    expect(valueOf(before, 'plant_store_rate_limited_total')).toBe(0);
    for (let index = 0; index < LIMIT; index++) {
      expect((await request(server, '/plants?limit=1', { headers: { authorization: `Bearer ${busy}` } })).status).toBe(200);
    }
    expectError(await request(server, '/plants?limit=1', { headers: { authorization: `Bearer ${busy}` } }), 429, 42901);
    expect(valueOf(await scrape(routed.server, routed.scraperToken), 'plant_store_rate_limited_total')).toBe(1);
  });
});
