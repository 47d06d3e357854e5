// A webhook receiver for tests: a local HTTP server that verifies every delivery's signature with
// the standardwebhooks package's own verifier, as a real receiver would, and records what came.
import http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { parseJsonExact } from '../../lib/shared/json';

export type Delivery = {
  id: string;
  timestamp: string;
  /** The raw body, byte for byte. */
  body: string;
  /** The body read with exact integers (ids as bigint). */
  event: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The `webhook-signature` header as it came: one `v1,<signature>` per secret that signed it, space-separated. */
  signature: string;
  /** The W3C trace context the delivery carried, if any. */
  traceparent: string | undefined;
  receivedAt: number;
};

export type Receiver = {
  url: string;
  port: number;
  /** Deliveries whose signature verified and that were answered 2xx, in arrival order (duplicates included). */
  deliveries: Delivery[];
  /** Every verified request, answered 2xx or not: its webhook-id and the status it got. */
  attempts: { id: string; status: number }[];
  /** Requests that failed verification (there must be none): why each failed. */
  rejected: string[];
  /** The status the next request gets (default 204); it may look at how many came before. */
  respondWith(status: number | ((request: { id: string; count: number }) => number)): void;
  setSecret(secret: string): void;
  /** Answers each request only after this long (a slow receiver). */
  delayAnswers(ms: number): void;
  /** Waits until `count` deliveries match, or fails after `timeoutMs`. */
  waitFor(predicate: (delivery: Delivery) => boolean, options?: { count?: number; timeoutMs?: number }): Promise<Delivery[]>;
  close(): Promise<void>;
};

/** Whether `delivery` verifies with `secret`, as a receiver that holds only that secret would check it. */
export function verifiesWith(delivery: Delivery, secret: string): boolean {
  const headers = { 'webhook-id': delivery.id, 'webhook-timestamp': delivery.timestamp, 'webhook-signature': delivery.signature };
  try {
    new Webhook(secret).verify(delivery.body, headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

export async function startReceiver(secret?: string): Promise<Receiver> {
  let verifier = secret ? new Webhook(secret) : undefined;
  let respond: number | ((request: { id: string; count: number }) => number) = 204;
  let answerDelayMs = 0;
  const deliveries: Delivery[] = [];
  const attempts: { id: string; status: number }[] = [];
  const rejected: string[] = [];
  const seen = new Map<string, number>();

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      try {
        if (!verifier) throw new Error('the receiver has no secret yet');
        // jsonParse: false; JSON.parse would round ids above 2^53.
        verifier.verify(body, headers, { jsonParse: false });
      } catch (error) {
        rejected.push(`${headers['webhook-id'] || '(no id)'}: ${(error as Error).message}`);
        response.writeHead(400).end();
        return;
      }
      const count = seen.get(headers['webhook-id']) ?? 0;
      seen.set(headers['webhook-id'], count + 1);
      const status = typeof respond === 'function' ? respond({ id: headers['webhook-id'], count }) : respond;
      attempts.push({ id: headers['webhook-id'], status });
      if (status >= 200 && status < 300) {
        deliveries.push({
          id: headers['webhook-id'],
          timestamp: headers['webhook-timestamp'],
          body,
          event: parseJsonExact(body) as Delivery['event'],
          signature: headers['webhook-signature'],
          traceparent: typeof request.headers.traceparent === 'string' ? request.headers.traceparent : undefined,
          receivedAt: performance.now(),
        });
      }
      const answer = () => response.writeHead(status, status >= 300 && status < 400 ? { location: 'http://127.0.0.1:9/elsewhere' } : {}).end();
      if (answerDelayMs > 0) setTimeout(answer, answerDelayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    deliveries,
    attempts,
    rejected,
    respondWith: (status) => void (respond = status),
    setSecret: (value) => void (verifier = new Webhook(value)),
    delayAnswers: (ms) => void (answerDelayMs = ms),
    async waitFor(predicate, { count = 1, timeoutMs = 10_000 } = {}) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = deliveries.filter(predicate);
        if (found.length >= count) return found;
        if (Date.now() > deadline) {
          throw new Error(`waited ${timeoutMs} ms for ${count} deliveries, got ${found.length} (of ${deliveries.length}; rejected: ${rejected.join('; ') || 'none'})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20)); // paces the poll (its deadline is above)
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
