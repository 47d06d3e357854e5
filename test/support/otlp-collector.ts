// A tiny OTLP/HTTP receiver for tests: takes what a server exports to /v1/traces as JSON
// (OTEL_EXPORTER_OTLP_PROTOCOL=http/json), flattens it into spans, and counts every connection
// made to it, exporting or not.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

type AnyValue = { stringValue?: string; intValue?: number | string; boolValue?: boolean; doubleValue?: number };
type OtlpSpanJson = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: AnyValue }[];
  status?: { code?: number; message?: string };
  links?: { traceId: string; spanId: string }[];
};
type ExportJson = {
  resourceSpans?: { resource?: { attributes?: { key: string; value: AnyValue }[] }; scopeSpans?: { spans?: OtlpSpanJson[] }[] }[];
};

export type CollectedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  /** OTLP's status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  /** The span contexts it links to (a trace it was started from, but is not part of). */
  links: { traceId: string; spanId: string }[];
};

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
export const SPAN_STATUS = { unset: 0, ok: 1, error: 2 } as const;

export type Collector = {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: CollectedSpan[];
  /** Connections made to it so far. */
  connections(): number;
  /** The spans matching `predicate` once there are `count` of them, or an error after `timeoutMs`. */
  waitFor(predicate: (span: CollectedSpan) => boolean, options?: { count?: number; timeoutMs?: number }): Promise<CollectedSpan[]>;
  close(): Promise<void>;
};

const valueOf = (value: AnyValue): string | number | boolean =>
  value.stringValue ?? value.boolValue ?? value.doubleValue ?? (value.intValue === undefined ? '' : Number(value.intValue));
const attributesOf = (list: { key: string; value: AnyValue }[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

/** Listens on `port` (default: any free one) on `host`. */
export async function startCollector(options: { port?: number; host?: string } = {}): Promise<Collector> {
  const spans: CollectedSpan[] = [];
  let connections = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces' && String(request.headers['content-type']).startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportJson;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || null,
                name: span.name,
                kind: span.kind,
                statusCode: span.status?.code ?? 0,
                attributes: attributesOf(span.attributes),
                resource,
                links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
              });
            }
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    connections: () => connections,
    async waitFor(predicate, { count = 1, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.filter(predicate);
        if (found.length >= count) return found;
        if (Date.now() > deadline) {
          throw new Error(`waited ${timeoutMs} ms for ${count} spans, got ${found.length}; all: ${spans.map((span) => span.name).join(', ') || 'none'}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
