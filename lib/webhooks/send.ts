// One delivery attempt: a signed POST of the event's exact body, judged by its answer. Success is a
// 2xx answer within ATTEMPT_TIMEOUT_MS; redirects are not followed (a 3xx is a failure, so a
// receiver cannot bounce the request somewhere the guard would refuse); the connection goes only
// to addresses the SSRF guard allows, checked as it is made (guard.ts). With tracing on, each
// attempt is a client span in the trace of the change that made the event, and its `traceparent`
// header lets the receiver join that trace (beside the signed headers, so signatures still verify).
import 'server-only';
import http from 'node:http';
import https from 'node:https';
import { processWide } from '../process-wide';
import { ATTEMPT_TIMEOUT_MS } from './config';
import { checkingLookup, privateUrlsAllowed, refusalOfLiteralHost, RefusedAddressError } from './guard';
import { signedHeaders } from './signing';
import { contextOfTraceparent, inSpan, SpanKind, traceparentOf, tracingOn } from '../tracing/spans';
import { SpanStatusCode, type Span } from '@opentelemetry/api';

export type AttemptResult = { ok: boolean; statusCode: number | null; durationMs: number; error: string | null };

const USER_AGENT = 'PlantStore-Webhooks/1.0 (+https://www.standardwebhooks.com)';
// What is read of an answer's body before the connection is dropped: receivers answer briefly.
const ANSWER_BODY_LIMIT_BYTES = 64 * 1024;
const MAX_SOCKETS_PER_HOST = 16;

// Kept-alive connections, one pool per process: a busy receiver is not re-dialled (nor re-resolved)
// for every event. Each connection was checked by checkingLookup when it was made.
const agents = processWide('webhook-agents', () => ({
  'http:': new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST, lookup: checkingLookup }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST, lookup: checkingLookup }),
}));

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  // By its code, not instanceof: the agents are process-wide, so the lookup that threw may be another
  // bundle's copy of guard.ts, with a class of its own.
  if (code === new RefusedAddressError('').code) return `refused: ${(error as Error).message}`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'the connection was reset';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT') || code === 'DEPTH_ZERO_SELF_SIGNED_CERT') return `TLS failed (${code})`;
  return error instanceof Error ? error.message.slice(0, 200) : String(error);
}

/**
 * One attempt, signed with each of the endpoint's `secrets` (newest first), in a client span whose
 * parent is the event's `traceparent` (the change's request) when it has one; `delivery` names the
 * attempt in the span.
 */
export function attemptDelivery(
  endpoint: { url: string; secrets: readonly string[] },
  message: { id: string; payload: string; traceparent?: string | null },
  delivery: { id?: string; endpointId?: string; attempt?: number } = {},
  at = new Date(),
): Promise<AttemptResult> {
  if (!tracingOn()) return attempt(endpoint, message, at, undefined);
  let target: URL | undefined;
  try {
    target = new URL(endpoint.url);
  } catch {
    // attempt() below answers for it.
  }
  const attributes = {
    'http.request.method': 'POST',
    // Scheme, host and path: a query could carry a receiver's credentials.
    ...(target && { 'url.full': `${target.origin}${target.pathname}`, 'server.address': target.hostname, 'server.port': Number(target.port) || (target.protocol === 'https:' ? 443 : 80) }),
    'webhook.message_id': message.id,
    ...(delivery.id && { 'webhook.delivery_id': delivery.id }),
    ...(delivery.endpointId && { 'webhook.endpoint_id': delivery.endpointId }),
    ...(delivery.attempt && { 'webhook.attempt': delivery.attempt }),
  };
  return inSpan('webhook POST', { kind: SpanKind.CLIENT, attributes, parent: contextOfTraceparent(message.traceparent) }, (span) =>
    attempt(endpoint, message, at, span).then((result) => {
      if (span) recordOutcome(span, result);
      return result;
    }),
  );
}

function recordOutcome(span: Span, result: AttemptResult): void {
  if (result.statusCode !== null) span.setAttribute('http.response.status_code', result.statusCode);
  if (!result.ok) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.error ?? `answered ${result.statusCode}` });
    span.setAttribute('error.type', result.statusCode !== null ? String(result.statusCode) : 'delivery_failed');
  }
}

function attempt(endpoint: { url: string; secrets: readonly string[] }, message: { id: string; payload: string }, at: Date, span: Span | undefined): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = new URL(endpoint.url);
  const refusal =
    url.protocol === 'http:' && !privateUrlsAllowed() ? 'http:// needs WEBHOOK_ALLOW_PRIVATE_URLS=1' : refusalOfLiteralHost(url.hostname);
  if (refusal) return Promise.resolve({ ok: false, statusCode: null, durationMs: 0, error: `refused: ${refusal}` });

  const body = Buffer.from(message.payload);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'user-agent': USER_AGENT,
    ...signedHeaders(endpoint.secrets, message.id, message.payload, at),
    ...(span && { traceparent: traceparentOf(span) }),
  };
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as 'http:' | 'https:'];

  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(url, { method: 'POST', headers, agent, lookup: checkingLookup }, (response) => {
      const statusCode = response.statusCode ?? 0;
      const ok = statusCode >= 200 && statusCode < 300;
      const redirect = statusCode >= 300 && statusCode < 400;
      settle({ ok, statusCode, error: redirect ? 'redirects are not followed' : null });
      // Read the answer to its end so the connection can serve the next event; a long one is cut.
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > ANSWER_BODY_LIMIT_BYTES) request.destroy();
      });
      response.on('end', () => clearTimeout(timer));
      response.on('error', () => {});
    });
    // Bounds the whole exchange: no answer in time is a failure, and a body still trickling in
    // then is cut off (the attempt was already judged by its status).
    const timer = setTimeout(() => {
      settle({ ok: false, statusCode: null, error: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` });
      request.destroy();
    }, ATTEMPT_TIMEOUT_MS);
    request.on('error', (error) => settle({ ok: false, statusCode: null, error: describe(error) }));
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}
