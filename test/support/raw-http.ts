// HTTP/1.1 as a hostile client speaks it: bytes written to a socket exactly as given, and the
// answers read back as bytes and parsed here, so nothing (fetch, undici) tidies either side.
import net from 'node:net';
import { recordRawExchange } from './observed';

export type RawResponse = {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body as JSON, when it is. */
  json?: { error?: number; message?: string } & Record<string, unknown>;
  /** Milliseconds from the first byte written to this answer's head. */
  at: number;
};

export type RawExchange = {
  responses: RawResponse[];
  /** Whether the server closed the connection (false when the wait ran out first). */
  closed: boolean;
  /** Milliseconds until the server closed, when it did. */
  closedAt?: number;
  raw: string;
};

/** Parses as many whole answers as `data` holds; `heads` are the offsets' arrival times. */
function parseResponses(data: Buffer, arrivals: { offset: number; at: number }[], method = 'GET'): RawResponse[] {
  const responses: RawResponse[] = [];
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd === -1) break;
    const [statusLine, ...lines] = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      headers[name] = headers[name] === undefined ? line.slice(colon + 1).trim() : `${headers[name]}, ${line.slice(colon + 1).trim()}`;
    }
    const status = Number(statusLine.split(' ')[1]);
    let cursor = headEnd + 4;
    let body: Buffer = Buffer.alloc(0);
    const bodiless = method === 'HEAD' || status === 204 || status === 304;
    if (!bodiless && /chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      for (;;) {
        const sizeEnd = data.indexOf('\r\n', cursor);
        if (sizeEnd === -1) return responses;
        const size = Number.parseInt(data.subarray(cursor, sizeEnd).toString(), 16);
        if (data.length < sizeEnd + 2 + size + 2) return responses;
        parts.push(data.subarray(sizeEnd + 2, sizeEnd + 2 + size));
        cursor = sizeEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
    } else if (!bodiless && headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (data.length < cursor + length) break;
      body = data.subarray(cursor, cursor + length);
      cursor += length;
    }
    const at = arrivals.find((arrival) => arrival.offset + 1 > offset && arrival.offset <= headEnd)?.at ?? arrivals.at(-1)?.at ?? 0;
    const text = body.toString('utf8');
    let json: RawResponse['json'];
    try {
      json = text && /json/.test(headers['content-type'] ?? '') ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    responses.push({ status, headers, body: text, json, at });
    offset = cursor;
  }
  return responses;
}

/**
 * Writes `parts` to a new connection (a number among them is a pause, in milliseconds), then reads
 * until the server closes or `waitMs` passes after the last write, or `until` is satisfied.
 */
export async function rawExchange(
  port: number,
  parts: (string | Buffer | number)[],
  options: { waitMs?: number; until?: (responses: RawResponse[]) => boolean; method?: string; destroyAfterMs?: number } = {},
): Promise<RawExchange> {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  const chunks: Buffer[] = [];
  const arrivals: { offset: number; at: number }[] = [];
  let received = 0;
  let closedAt: number | undefined;
  let check = () => {};
  socket.on('data', (chunk: Buffer) => {
    arrivals.push({ offset: received, at: Date.now() - started });
    received += chunk.length;
    chunks.push(chunk);
    check();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => ((closedAt = Date.now() - started), resolve())));
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let destroyTimer: NodeJS.Timeout | undefined;
  if (options.destroyAfterMs !== undefined) destroyTimer = setTimeout(() => socket.destroy(), options.destroyAfterMs);
  for (const part of parts) {
    if (socket.destroyed) break;
    if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
    else socket.write(part);
  }
  const done = new Promise<void>((resolve) => {
    check = () => {
      if (options.until?.(parseResponses(Buffer.concat(chunks), arrivals, options.method))) resolve();
    };
    check();
  });
  await Promise.race([closed, done, new Promise((resolve) => setTimeout(resolve, options.waitMs ?? 3000))]);
  clearTimeout(destroyTimer);
  const data = Buffer.concat(chunks);
  socket.destroy();
  const responses = parseResponses(data, arrivals, options.method);
  const sent = parts.filter((part) => typeof part !== 'number').map((part) => part.toString('latin1')).join('');
  recordRawExchange(sent, responses.map((response) => response.status));
  return { responses, closed: closedAt !== undefined, closedAt, raw: data.toString('latin1') };
}

/** A request's head and body as bytes; CRLF line ends, a Host unless one is given. */
export function rawRequest(requestLine: string, headers: Record<string, string | number> = {}, body = ''): string {
  const lines = [requestLine, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) lines.splice(1, 0, 'Host: plants.test');
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
