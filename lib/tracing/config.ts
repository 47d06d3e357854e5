// Whether this process exports traces: only when an OTLP endpoint is named (the standard
// OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for traces alone), and neither
// OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise. Unset, nothing of the SDK is
// loaded and every span helper (spans.ts) is one test of a constant. Nothing of OpenTelemetry here:
// instrumentation.ts reads it before deciding to load anything.
import { settings, type Settings } from '../settings';

type OtelSettings = Pick<
  Settings,
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_SDK_DISABLED'
  | 'OTEL_TRACES_EXPORTER'
  | 'OTEL_EXPORTER_OTLP_PROTOCOL'
  | 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
>;

export function tracingConfigured(from: OtelSettings = settings()): boolean {
  if (!from.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT && !from.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  if (from.OTEL_SDK_DISABLED?.toLowerCase() === 'true') return false;
  const exporters = (from.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  return exporters.includes('otlp');
}

/** The OTLP transport asked for: http/protobuf unless OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says http/json (or grpc, which is not offered). */
export function otlpProtocol(from: OtelSettings = settings()): string {
  return (from.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || from.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').toLowerCase();
}
