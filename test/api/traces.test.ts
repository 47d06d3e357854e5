// Traces, on each engine: production servers that export to a local OTLP/HTTP receiver
// (test/support/otlp-collector.ts, as JSON), one answering the API directly and one with
// API_DIRECT_ROUTES=off, so Next's router makes the server span. A POST /plants on each must give a
// server span named for its route, a database span under it, and a webhook delivery span in the same
// trace whose traceparent reached the receiver; the request's log line names the trace. Both
// servers trust the proxy at 127.0.0.1 (TRUST_PROXY): a caller's traceparent through it is
// continued, while one from 127.0.0.2, a client that is not the proxy, starts nothing: the server
// starts a trace of its own, which links to the caller's. A third server, with
// OTEL_EXPORTER_OTLP_ENDPOINT unset, must export nothing at all, not even to the SDK's default port.
// The direct one also takes scheduled backups, each of which must be a trace of its own.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { createOn, request as requestOn, uniqueId } from '../support/api';
import { copyTestDatabase, testEngine, tokenIn, type TestDatabase } from '../support/database';
import { test as base } from '../support/fixtures';
import { SPAN_KIND, SPAN_STATUS, startCollector, type CollectedSpan, type Collector } from '../support/otlp-collector';
import { headerValue, rawAnswer, rawRequest } from '../support/raw-socket';
import { startReceiver, type Receiver } from '../support/receiver';
import type { RunningServer } from '../support/server';
import { endpointIn } from '../support/webhooks';

// Every variable set, for the servers with tracing and the one without, but the endpoint.
const OTEL_SETTINGS = { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50', OTEL_SERVICE_NAME: 'plant-store-test' };
// Where the SDK would export with no endpoint named: the unset server's only possible destination.
const DEFAULT_OTLP_PORT = 4318;
// The proxy the traced servers trust, and a client on the same machine that is not it.
const PROXY = '127.0.0.1';
const NOT_THE_PROXY = '127.0.0.2';

/** A trace context a caller makes up: a trace id and a span id of its choosing. */
const chosenContext = () => ({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') });

// What the servers export to and deliver to, closed when the file ends: the collector they are told
// of, and the webhook receiver.
const test = base
  .extend('collector', { scope: 'file' }, async ({}, { onCleanup }) => {
    const collector = await startCollector();
    onCleanup(collector.close);
    return collector;
  })
  .extend('receiver', { scope: 'file' }, async ({}, { onCleanup }) => {
    const receiver = await startReceiver();
    onCleanup(receiver.close);
    return receiver;
  });

type LogLine = { msg: string; requestId?: string; trace_id?: string; span_id?: string };

/** The server's log line for request `requestId`, once it has printed it. */
async function requestLogLine(server: RunningServer, requestId: string, timeoutMs = 5000): Promise<LogLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = server
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as LogLine)
      .find((entry) => entry.msg === 'request' && entry.requestId === requestId);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no log line for request ${requestId}:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The ids of `span`'s ancestors that the collector has, nearest first. */
function ancestorsOf(span: CollectedSpan, spans: CollectedSpan[]): string[] {
  const ids: string[] = [];
  for (let parent = span.parentSpanId; parent; ) {
    ids.push(parent);
    parent = spans.find((candidate) => candidate.spanId === parent)?.parentSpanId ?? null;
  }
  return ids;
}

/**
 * A collector on the SDK's default port (http://localhost:4318, both address families where the
 * machine has them), once no other process holds it; fails after `timeoutMs`.
 */
async function claimDefaultPortCollector(timeoutMs: number): Promise<Collector> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await startCollector({ port: DEFAULT_OTLP_PORT, host: '::' }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE') throw error;
        return startCollector({ port: DEFAULT_OTLP_PORT });
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200)); // paces the retry (its deadline is above)
    }
  }
}

describe('traces', () => {
  let collector: Collector;
  let receiver: Receiver;
  let token: string;
  let backupDir: string;
  let untracedDatabase: TestDatabase;
  const servers: Record<'direct' | 'next', RunningServer> = {} as never;

  test.beforeAll(async ({ ownDatabase: database, fileTempDir, startFileServer, collector: exportTo, receiver: deliverTo }) => {
    [collector, receiver] = [exportTo, deliverTo];
    // One database with the endpoint and the token, copied for each server (same secret, same token).
    const endpoint = await endpointIn(database.url, receiver.url);
    receiver.setSecret(endpoint.secret);
    ({ token } = await tokenIn(database.url, 'traces'));
    const copies = await Promise.all([copyTestDatabase(database), copyTestDatabase(database)]);

    const traced = { ...OTEL_SETTINGS, OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, WEBHOOK_ALLOW_PRIVATE_URLS: '1', TRUST_PROXY: PROXY };
    backupDir = fileTempDir;
    const readyTimeoutMs = 90_000;
    untracedDatabase = copies[1];
    const [direct, next] = await Promise.all([
      // An empty backup folder: the first scheduled backup is due at once.
      startFileServer({ database, env: { ...traced, BACKUP_DIR: backupDir }, readyTimeoutMs }),
      startFileServer({ database: copies[0], removeDatabaseAfter: true, env: { ...traced, API_DIRECT_ROUTES: 'off' }, readyTimeoutMs }),
    ]);
    Object.assign(servers, { direct, next });
  });
  afterAll(() => expect(receiver.rejected).toEqual([]));
  // Removed here rather than with the test's server, so that it goes even when the test is left out.
  afterAll(() => untracedDatabase?.remove());

  it.each([
    ['the direct path', 'direct'],
    ["Next's router", 'next'],
  ] as const)('POST /plants through %s: a server span, a database span under it, a delivery span whose traceparent reached the receiver', async (_, which) => {
    const server = servers[which];
    const id = uniqueId();
    const created = await createOn(server, token, `{"id": ${id}, "name": "Traced"}`);
    expect(created.status).toBe(200);
    const requestId = created.headers.get('x-request-id')!;

    // The request's server span, named and attributed alike on both paths.
    const [request] = await collector.waitFor((span) => span.kind === SPAN_KIND.server && span.attributes['plant_store.request_id'] === requestId);
    expect(request.name).toBe('POST /plants');
    expect(request.attributes).toMatchObject({
      'http.route': '/plants',
      'http.request.method': 'POST',
      'http.response.status_code': 200,
      'http.method': 'POST',
      'http.status_code': 200,
      'next.route': '/plants',
    });
    expect(request.resource['service.name']).toBe('plant-store-test');

    // The insert, in the request's trace and below its server span.
    const [insert] = await collector.waitFor((span) => span.traceId === request.traceId && span.attributes['db.operation.name'] === 'plants.insertMany');
    expect(insert.kind).toBe(SPAN_KIND.client);
    expect(insert.attributes['db.system.name']).toBe(testEngine());
    expect(ancestorsOf(insert, collector.spans)).toContain(request.spanId);

    // The delivery: a client span in the same trace, and the receiver got its traceparent (signed as ever).
    const [delivery] = await receiver.waitFor((one) => one.event.type === 'plant.created' && one.event.data.id === id);
    const [attempt] = await collector.waitFor((span) => span.kind === SPAN_KIND.client && span.attributes['webhook.message_id'] === delivery.id);
    expect(attempt.traceId).toBe(request.traceId);
    expect(ancestorsOf(attempt, collector.spans)).toContain(request.spanId);
    expect(attempt.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 204, 'url.full': receiver.url });
    expect(delivery.traceparent).toBe(`00-${request.traceId}-${attempt.spanId}-01`);

    // The request's log line names its trace and a span of it.
    const line = await requestLogLine(server, requestId);
    expect(line.trace_id).toBe(request.traceId);
    expect(collector.spans.filter((span) => span.traceId === request.traceId).map((span) => span.spanId)).toContain(line.span_id);
  });

  it.each([
    ['the direct path', 'direct'],
    ["Next's router", 'next'],
  ] as const)("POST /plants through %s from a client that is not a trusted proxy: the server's own trace, sampled by the server, linked to the client's", async (_, which) => {
    const server = servers[which];
    // The client names its trace, sampled (flag 01) or asking for it not to be (00).
    for (const flags of ['01', '00']) {
      const id = uniqueId();
      const chosen = chosenContext();
      const body = `{"id": ${id}, "name": "Traced from outside"}`;
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        traceparent: `00-${chosen.traceId}-${chosen.spanId}-${flags}`,
        tracestate: 'chosen=1',
        connection: 'close',
      };
      const created = await rawAnswer(server.port, rawRequest('POST /plants HTTP/1.1', headers, body), { localAddress: NOT_THE_PROXY, method: 'POST', timeoutMs: 15_000 });
      expect(created.status).toBe(200);
      const requestId = headerValue(created, 'x-request-id')!;

      // Traced all the same, in a trace of the server's own whose root links to the client's context.
      const [request] = await collector.waitFor((span) => span.kind === SPAN_KIND.server && span.attributes['plant_store.request_id'] === requestId);
      expect(request.traceId, flags).not.toBe(chosen.traceId);
      expect(ancestorsOf(request, collector.spans)).not.toContain(chosen.spanId);
      const [root] = await collector.waitFor((span) => span.traceId === request.traceId && span.parentSpanId === null);
      expect(root.kind).toBe(SPAN_KIND.server);
      expect(root.links).toEqual([chosen]);

      // The log line and the webhook delivery (stored with the change, sent to the receiver) carry the server's trace.
      const line = await requestLogLine(server, requestId);
      expect(line.trace_id).toBe(request.traceId);
      const [delivery] = await receiver.waitFor((one) => one.event.type === 'plant.created' && one.event.data.id === id);
      expect(delivery.traceparent).toMatch(new RegExp(`^00-${request.traceId}-[0-9a-f]{16}-01$`));
      // Nothing the server sent anywhere is in the client's trace.
      expect(collector.spans.filter((span) => span.traceId === chosen.traceId)).toEqual([]);
      expect(receiver.deliveries.filter((one) => one.traceparent?.includes(chosen.traceId))).toEqual([]);
    }
  });

  it.each([
    ['the direct path', 'direct'],
    ["Next's router", 'next'],
  ] as const)('POST /plants through %s from the trusted proxy: the traceparent it passes on is continued', async (_, which) => {
    const server = servers[which];
    const id = uniqueId();
    const upstream = chosenContext();
    const created = await requestOn(server, '/plants', {
      method: 'POST',
      token,
      body: `{"id": ${id}, "name": "Traced through the proxy"}`,
      headers: { traceparent: `00-${upstream.traceId}-${upstream.spanId}-01` },
    });
    expect(created.status).toBe(200);
    const requestId = created.headers.get('x-request-id')!;

    const [request] = await collector.waitFor((span) => span.kind === SPAN_KIND.server && span.attributes['plant_store.request_id'] === requestId);
    expect(request.traceId).toBe(upstream.traceId);
    expect(ancestorsOf(request, collector.spans).at(-1)).toBe(upstream.spanId);
    expect(collector.spans.filter((span) => span.traceId === upstream.traceId).flatMap((span) => span.links)).toEqual([]);
    expect((await requestLogLine(server, requestId)).trace_id).toBe(upstream.traceId);
    const [delivery] = await receiver.waitFor((one) => one.event.type === 'plant.created' && one.event.data.id === id);
    expect(delivery.traceparent).toMatch(new RegExp(`^00-${upstream.traceId}-[0-9a-f]{16}-01$`));
  });

  it('a scheduled backup is a trace of its own: one span with the file and its size; none where the database has its own tools', async () => {
    if (testEngine() === 'postgresql') {
      // PostgreSQL's backups are pg_dump's (docs/operations.md, Backups): no schedule starts, so no
      // backup is attempted. The server has served and traced the tests above by now.
      expect(collector.spans.filter((span) => span.name === 'backup.scheduled')).toEqual([]);
      return;
    }
    const [backup] = await collector.waitFor((span) => span.name === 'backup.scheduled');
    expect(backup.parentSpanId).toBeNull();
    expect(backup.kind).toBe(SPAN_KIND.internal);
    expect(String(backup.attributes['plant_store.backup.file']).startsWith(backupDir)).toBe(true);
    expect(backup.statusCode).toBe(SPAN_STATUS.unset);
    expect(backup.attributes['plant_store.backup.bytes']).toBeGreaterThan(0);
  });

  // The SDK's default port is one for the machine, and the other engine's run of this file may hold
  // it: this test waits its turn, then holds the port only while its own server lives.
  test('with OTEL_EXPORTER_OTLP_ENDPOINT unset, no span is made and no exporter connection is attempted', { timeout: 180_000 }, async ({ startOwnServer }) => {
    const defaultPortCollector = await claimDefaultPortCollector(120_000);
    onTestFinished(defaultPortCollector.close);
    const server = await startOwnServer({ database: untracedDatabase, env: { ...OTEL_SETTINGS, OTEL_EXPORTER_OTLP_ENDPOINT: '', WEBHOOK_ALLOW_PRIVATE_URLS: '1' }, readyTimeoutMs: 90_000 });
    const id = uniqueId();
    const created = await createOn(server, token, `{"id": ${id}, "name": "Untraced"}`);
    expect(created.status).toBe(200);
    const [delivery] = await receiver.waitFor((one) => one.event.type === 'plant.created' && one.event.data.id === id);
    expect(delivery.traceparent).toBeUndefined();
    const line = await requestLogLine(server, created.headers.get('x-request-id')!);
    expect(line).not.toHaveProperty('trace_id');
    // A traced server sends what it still holds as it stops (server/main.ts): after this exit,
    // anything this one would ever have sent has been sent.
    await server.stop('SIGTERM');
    expect(defaultPortCollector.connections()).toBe(0);
    expect(collector.spans.filter((span) => span.attributes['webhook.message_id'] === delivery.id)).toEqual([]);
  });
});
