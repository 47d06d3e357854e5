// Whether this process exports traces: only when an OTLP endpoint is named (the standard
// OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for traces alone), and neither
// OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise. Unset, nothing of the SDK is
// loaded and every span helper (spans.ts) is one test of a constant. No imports: instrumentation.ts
// reads it before deciding to load anything.

type Env = Record<string, string | undefined>;

export function tracingConfigured(env: Env = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return false;
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  return exporters.includes('otlp');
}

/** The OTLP transport asked for: http/protobuf unless OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL says http/json (or grpc, which is not offered). */
export function otlpProtocol(env: Env = process.env): string {
  return (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf').toLowerCase();
}
