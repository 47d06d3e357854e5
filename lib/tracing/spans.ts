// The spans this app makes itself, through the OpenTelemetry API (never the SDK: sdk.ts is loaded
// by instrumentation.ts only when tracing is configured). With tracing off (config.ts) every helper
// here is one test of a constant and calls straight through, so an unset OTEL_EXPORTER_OTLP_ENDPOINT
// costs nothing measurable (docs/performance.md, Tracing off and on). With it on, the API reaches the SDK
// through its global registration, whichever bundle (a route's, or the server's own) asks.
import 'server-only';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  context,
  createContextKey,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { processWide } from '../process-wide';
import { tracingConfigured } from './config';

const ON = tracingConfigured();
const TRACER_NAME = 'plant-store';

/** Whether this process exports traces (OTEL_EXPORTER_OTLP_ENDPOINT and friends, config.ts). */
export function tracingOn(): boolean {
  return ON;
}

export { SpanKind };

/**
 * Each span's request span: the SERVER span of the request it belongs to, Next's own
 * (BaseServer.handleRequest) or the direct path's. The SDK's span processor fills it as spans
 * start (sdk.ts), so a route handler can annotate its request's span from any depth below it.
 */
export const requestSpans = processWide('tracing-request-spans', () => new WeakMap<object, Span>());

/** What flushes and stops the SDK at shutdown; set by sdk.ts when it starts. */
const exporting = processWide('tracing-shutdown', () => ({ shutdown: async (): Promise<void> => {} }));

export function onTracingShutdown(shutdown: () => Promise<void>): void {
  exporting.shutdown = shutdown;
}

/** Sends the spans still queued, waiting at most `timeoutMs` (an unreachable collector must not hold up an exit). */
export async function flushTraces(timeoutMs = 2000): Promise<void> {
  if (!ON) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    exporting.shutdown().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

export type SpanOptions = {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent (default: the active context). */
  parent?: Context;
  /** Start a trace of its own, whatever is active (work no request asked for, such as a scheduled backup). */
  root?: boolean;
  /** Make the span only inside a trace already under way (so the dispatcher's polling makes none). */
  onlyInTrace?: boolean;
};

/**
 * Runs `work` inside a new active span that ends when it returns, or when the promise it returns
 * settles; a throw or a rejection marks the span as failed. Off, or outside a trace with
 * `onlyInTrace`, it just runs `work` (with no span).
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => T): T {
  if (!ON) return work(undefined);
  const parent = options.root ? ROOT_CONTEXT : (options.parent ?? context.active());
  if (options.onlyInTrace && !trace.getSpan(parent)) return work(undefined);
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind: options.kind, attributes: options.attributes }, parent, (span) => {
    let result: T;
    try {
      result = work(span);
    } catch (error) {
      failed(span, error);
      span.end();
      throw error;
    }
    if (isThenable(result)) {
      return Promise.resolve(result).then(
        (value: unknown) => {
          span.end();
          return value;
        },
        (error: unknown) => {
          failed(span, error);
          span.end();
          throw error;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

// The trace context that a request from a client that is not a trusted proxy named: its server
// span links to it rather than continuing it. A key made with Symbol.for, so the server's bundle,
// which sets it, and the SDK's span processor (sdk.ts), which reads it, share it.
const CALLER_CONTEXT = createContextKey('plant-store.caller-trace-context');

/**
 * Serves a request that did not come through a trusted proxy (server/main.ts) as one from a public
 * endpoint: its `traceparent` and `tracestate` are removed before either path sees them, so neither
 * Next nor the direct path continues a trace a stranger chose, with its trace id and its sampling
 * flag: the request's server span starts a trace of the server's own, which the server's sampler
 * decides on. `work` runs in a context that holds the caller's span context, which that span links
 * to (sdk.ts). Tracing off, the headers go all the same.
 */
export function asPublicRequest<T>(headers: IncomingHttpHeaders, work: () => T): T {
  const carrier = { traceparent: headers.traceparent, tracestate: headers.tracestate };
  delete headers.traceparent;
  delete headers.tracestate;
  if (!ON || carrier.traceparent === undefined) return work();
  const caller = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, carrier));
  if (!caller || !isSpanContextValid(caller)) return work();
  return context.with(context.active().setValue(CALLER_CONTEXT, caller), work);
}

/** The caller's span context that a server span starting in `parent` links to, when asPublicRequest set one. */
export function callerContextIn(parent: Context): SpanContext | undefined {
  return parent.getValue(CALLER_CONTEXT) as SpanContext | undefined;
}

/**
 * The direct path's server span for one request (server/direct-routes.ts), named and attributed
 * as Next names its own BaseServer.handleRequest span for the same route ("POST /plants"), with the
 * stable HTTP attributes beside Next's older ones. It continues a caller's `traceparent`, as Next
 * does (only a trusted proxy's is left, asPublicRequest), in the context the request is served in,
 * and ends when the response closes. `work` runs with the span active.
 */
export function inRequestSpan<T>(
  request: { method: string; url: string; headers: IncomingHttpHeaders },
  response: ServerResponse,
  route: string,
  work: () => T,
): T {
  if (!ON) return work();
  const name = `${request.method} ${route}`;
  // The active context, as Next's own span takes it: it may hold a caller's context to link to.
  const parent = propagation.extract(context.active(), request.headers);
  const span = trace.getTracer(TRACER_NAME).startSpan(
    name,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'next.span_category': 'nextjs',
        'next.span_name': name,
        'next.span_type': 'BaseServer.handleRequest',
        'next.route': route,
        'next.rsc': false,
        'http.method': request.method,
        'http.request.method': request.method,
        'http.target': request.url,
        'http.route': route,
      },
    },
    parent,
  );
  response.once('close', () => {
    const status = response.statusCode;
    span.setAttributes({ 'http.status_code': status, 'http.response.status_code': status });
    if (status >= 500) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', String(status));
    }
    span.end();
  });
  return context.with(trace.setSpan(parent, span), work);
}

/** Adds attributes to the current request's server span (Next's or the direct path's), if there is one. */
export function annotateRequestSpan(attributes: Attributes): void {
  if (!ON) return;
  const active = trace.getActiveSpan();
  if (active) requestSpans.get(active)?.setAttributes(attributes);
}

function activeSpanContext(): SpanContext | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? spanContext : undefined;
}

/** The active span's ids, for log lines; none when tracing is off or no span is active. */
export function traceFields(): { trace_id: string; span_id: string } | undefined {
  if (!ON) return undefined;
  const spanContext = activeSpanContext();
  return spanContext && { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

const hex2 = (flags: number) => (flags & 0xff).toString(16).padStart(2, '0');
const format = (spanContext: SpanContext) => `00-${spanContext.traceId}-${spanContext.spanId}-${hex2(spanContext.traceFlags)}`;
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of the active span (stored with a change's webhook events), or null. */
export function currentTraceparent(): string | null {
  if (!ON) return null;
  const spanContext = activeSpanContext();
  return spanContext ? format(spanContext) : null;
}

/** The `traceparent` that makes `span` the parent of what a receiver does with the request. */
export function traceparentOf(span: Span): string {
  return format(span.spanContext());
}

/** A context whose parent is the span a stored `traceparent` names; a fresh root when there is none (or it is malformed). */
export function contextOfTraceparent(traceparent: string | null | undefined): Context {
  const parts = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!parts) return ROOT_CONTEXT;
  const spanContext: SpanContext = { traceId: parts[1], spanId: parts[2], traceFlags: Number.parseInt(parts[3], 16), isRemote: true };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(ROOT_CONTEXT, spanContext) : ROOT_CONTEXT;
}
