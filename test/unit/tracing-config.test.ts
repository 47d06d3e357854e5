// When tracing is on (lib/tracing/config.ts), and how a stored traceparent becomes a parent
// (lib/tracing/spans.ts): off unless an endpoint is named, and a malformed traceparent starts a new trace.
import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../lib/settings';
import * as config from '../../lib/tracing/config';
import { contextOfTraceparent } from '../../lib/tracing/spans';

// As the process would decide with `env` for its environment.
const tracingConfigured = (env: Record<string, string>) => config.tracingConfigured(readSettings(env).settings);
const otlpProtocol = (env: Record<string, string>) => config.otlpProtocol(readSettings(env).settings);

describe('tracing configuration', () => {
  it('is on only with an OTLP endpoint named', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: '' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ', OTEL_SERVICE_NAME: 'x' })).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('stays off when the SDK is disabled or the traces exporter is none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingConfigured({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingConfigured({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).toBe(true);
    expect(tracingConfigured({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingConfigured({ ...endpoint, OTEL_TRACES_EXPORTER: 'console, otlp' })).toBe(true);
  });

  it('speaks http/protobuf unless told http/json, the traces variable first', () => {
    expect(otlpProtocol({})).toBe('http/protobuf');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' })).toBe('grpc');
  });
});

describe('a stored traceparent', () => {
  it('becomes the remote parent it names', () => {
    const parent = trace.getSpanContext(contextOfTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'));
    expect(parent).toEqual({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1, isRemote: true });
  });

  it('starts a new trace when absent or malformed', () => {
    for (const value of [null, undefined, '', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331', '01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', `00-${'0'.repeat(32)}-b7ad6b7169203331-01`]) {
      expect(trace.getSpanContext(contextOfTraceparent(value))).toBeUndefined();
    }
  });
});
