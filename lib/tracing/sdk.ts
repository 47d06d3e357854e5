// The OpenTelemetry SDK for this server process, started by instrumentation.ts only when tracing is
// configured (config.ts): unset, this module and the SDK's packages are never loaded. Spans go in
// batches to the OTLP/HTTP endpoint the standard variables name (OTEL_EXPORTER_OTLP_ENDPOINT,
// _HEADERS, _TIMEOUT, _COMPRESSION, OTEL_BSP_*, OTEL_TRACES_SAMPLER, OTEL_SERVICE_NAME,
// OTEL_RESOURCE_ATTRIBUTES: the SDK reads them itself), as protobuf or, with
// OTEL_EXPORTER_OTLP_PROTOCOL=http/json, as JSON. Next's own spans and this app's (spans.ts) go
// through the same provider. See docs/operations.md, Traces.
import 'server-only';
import { trace, type Context } from '@opentelemetry/api';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type Span, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { log } from '../log';
import { processWide } from '../process-wide';
import { otlpProtocol } from './config';
import { callerContextIn, onTracingShutdown, requestSpans, SpanKind } from './spans';

const SERVICE_NAME = 'plant-store';

/**
 * Notes each span's request span as it starts (spans.ts, requestSpans): a server span is its own,
 * any other inherits its parent's. And gives Next's server spans the stable `http.request.method`
 * beside the `http.method` Next sets, as the direct path's spans have both. A server span that
 * starts a trace for a request from a client that is not a trusted proxy (spans.ts,
 * asPublicRequest) links to the context that client sent: here, because Next starts its own span
 * with no way to pass it links.
 */
const requestSpanIndex: SpanProcessor = {
  onStart(span: Span, parentContext: Context) {
    if (span.kind === SpanKind.SERVER) {
      requestSpans.set(span, span);
      const method = span.attributes['http.method'];
      if (typeof method === 'string' && span.attributes['http.request.method'] === undefined) span.setAttribute('http.request.method', method);
      const caller = callerContextIn(parentContext);
      if (caller && !trace.getSpanContext(parentContext)) span.addLink({ context: caller });
      return;
    }
    const parent = trace.getSpan(parentContext);
    const request = parent && requestSpans.get(parent);
    if (request) requestSpans.set(span, request);
  },
  onEnd() {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/** The exporter OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL asks for; only that one is loaded. */
async function otlpExporter(protocol: string): Promise<SpanExporter | null> {
  if (protocol === 'http/protobuf') return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
  if (protocol === 'http/json') return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  return null;
}

const state = processWide('tracing-sdk', () => ({ started: false }));

/** Starts exporting spans (once per process). */
export async function startTracing(): Promise<void> {
  if (state.started) return;
  state.started = true;
  const protocol = otlpProtocol();
  const exporter = await otlpExporter(protocol);
  if (!exporter) {
    log.error('traces are not exported: OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json', { protocol });
    return;
  }
  // Ours first; OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the environment detector) win.
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': SERVICE_NAME }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [requestSpanIndex, new BatchSpanProcessor(exporter)] });
  // The global provider, AsyncLocalStorage context and W3C trace-context propagation: Next's
  // tracer and this app's spans (spans.ts) find them through the API.
  provider.register();
  onTracingShutdown(() => provider.shutdown());
  log.info('tracing on', { protocol, service: String(resource.attributes['service.name'] ?? SERVICE_NAME) });
}
