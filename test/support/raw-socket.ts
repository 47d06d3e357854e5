// HTTP/1.1 spoken byte for byte over node:net, as a hostile client would: requests are written
// exactly as given (no client library fixes a Host header, a target or a framing error), in steps
// with pauses between them or streamed by a writer, and answers are parsed here, pipelined and
// interim ones included, with their chunked framing and gzip undone, each with when it arrived.
import net from 'node:net';
import zlib from 'node:zlib';
import { recordRawExchange } from './observed';

/** One answer, as the client saw it. */
export type RawResponse = {
  status: number;
  /** Interim (1xx) statuses sent before it, such as 100 for `Expect: 100-continue`. */
  interim: number[];
  /** Header fields in the order sent, names lowercased. */
  headerList: [string, string][];
  /** The body as sent on the wire, chunked framing removed but still content-encoded. */
  wireBody: Buffer;
  /** The body as the representation: content-encoding undone (gzip, deflate, br). */
  body: Buffer;
  /** Why the body could not be decoded, when it could not. */
  decodeError?: string;
  /** The header fields as one record, repeated ones joined with ", " as a Headers object would. */
  headers: Record<string, string>;
  /** The body as UTF-8 text. */
  text: string;
  /** The body as JSON, when its content type says JSON and it parses. */
  json?: { error?: number; message?: string } & Record<string, unknown>;
  /** Milliseconds from the connection opening to the arrival of this answer's last byte. */
  at: number;
};

/** How an exchange ended. */
export type Ending =
  | 'answered' // every expected answer arrived
  | 'closed' // the server closed the connection first
  | 'reset' // the connection failed (ECONNRESET, EPIPE)
  | 'timeout' // nothing more arrived in time
  | 'abandoned'; // the client gave up first (destroyAfterMs)

export type RawExchange = {
  responses: RawResponse[];
  ending: Ending;
  /** Bytes after the last parsed answer that are not an HTTP answer. */
  garbage?: string;
  /** Milliseconds from the connection opening until the server closed or reset it, when it did. */
  closedAt?: number;
  /** Every byte the server sent, as latin1 text. */
  raw: string;
};

/** A step: write these bytes, then wait for this many answers (to requests with these methods). */
export type RawStep = {
  /** What to write; or a writer that streams to the socket itself (a body sent with backpressure until the server answers, say). */
  bytes: Buffer | string | ((socket: net.Socket) => void);
  /** The method of each request whose answer this step waits for (HEAD answers have no body). */
  methods: string[];
  /** Milliseconds to wait before writing (a client that trickles its request). */
  pauseMs?: number;
};

export type RawOptions = {
  /** How long to wait for each step's answers, in ms. */
  timeoutMs?: number;
  /** Half-close the connection after the last write (the client sends nothing more). */
  endAfterWrite?: boolean;
  /**
   * After the last step's answers, read on until the server closes the connection (or goes quiet
   * for `timeoutMs`), taking what else it sends as more answers (to `GET`): to see that a refusal
   * closes the connection, or an answer the client did not wait for (a 408 while it trickles).
   */
  readUntilClose?: boolean;
  /** Destroy the connection this many milliseconds after it opened, whatever is under way (a client that goes away). */
  destroyAfterMs?: number;
  /**
   * The client's own address: another loopback address (Linux routes all of 127.0.0.0/8 to the
   * loopback interface), such as 127.0.0.2, is a client on this machine that is not 127.0.0.1.
   */
  localAddress?: string;
};

/** Joins header values as a Headers object would; Set-Cookie is kept apart. */
export function headerValue(response: RawResponse, name: string): string | null {
  const values = response.headerList.filter(([field]) => field === name).map(([, value]) => value);
  return values.length ? values.join(', ') : null;
}

function decodeBody(encoding: string | null, wire: Buffer): { body: Buffer; decodeError?: string } {
  const codings = (encoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding && coding !== 'identity');
  let body = wire;
  try {
    for (const coding of codings.reverse()) {
      if (coding === 'gzip' || coding === 'x-gzip') body = zlib.gunzipSync(body);
      else if (coding === 'deflate') body = zlib.inflateSync(body);
      else if (coding === 'br') body = zlib.brotliDecompressSync(body);
      else return { body: wire, decodeError: `unknown content-encoding ${coding}` };
    }
  } catch (error) {
    return { body: wire, decodeError: (error as Error).message };
  }
  return { body };
}

type Parsed = { response: RawResponse; consumed: number } | 'more' | { error: string };

/** Decodes a chunked body starting at `from`: its bytes and where the message ends, or 'more'. */
function dechunk(buffer: Buffer, from: number): { body: Buffer; end: number } | 'more' | { error: string } {
  const chunks: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at);
    if (lineEnd === -1) return 'more';
    const sizeText = buffer.subarray(at, lineEnd).toString('latin1').split(';')[0].trim();
    if (!/^[0-9a-fA-F]+$/.test(sizeText)) return { error: `bad chunk size ${JSON.stringify(sizeText)}` };
    const size = Number.parseInt(sizeText, 16);
    at = lineEnd + 2;
    if (size === 0) {
      // Trailer fields, then an empty line.
      for (;;) {
        const trailerEnd = buffer.indexOf('\r\n', at);
        if (trailerEnd === -1) return 'more';
        const empty = trailerEnd === at;
        at = trailerEnd + 2;
        if (empty) return { body: Buffer.concat(chunks), end: at };
      }
    }
    if (buffer.length < at + size + 2) return 'more';
    chunks.push(buffer.subarray(at, at + size));
    at += size + 2;
  }
}

/** Parses one answer (and the interim ones before it) at the start of `buffer`. */
function parseResponse(buffer: Buffer, method: string, closed: boolean, arrivedAt: number): Parsed {
  const interim: number[] = [];
  let at = 0;
  for (;;) {
    const headEnd = buffer.indexOf('\r\n\r\n', at);
    if (headEnd === -1) return closed && buffer.length > at ? { error: 'a truncated head' } : 'more';
    const lines = buffer.subarray(at, headEnd).toString('latin1').split('\r\n');
    const statusLine = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(lines[0]);
    if (!statusLine) return { error: `not a status line: ${JSON.stringify(lines[0].slice(0, 80))}` };
    const status = Number(statusLine[1]);
    const headerList = lines.slice(1).map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
    at = headEnd + 4;
    if (status >= 100 && status < 200 && status !== 101) {
      interim.push(status);
      continue;
    }
    const field = (name: string) => headerList.find(([key]) => key === name)?.[1] ?? null;
    let wireBody: Buffer;
    let end: number;
    if (method === 'HEAD' || status === 204 || status === 304) {
      wireBody = Buffer.alloc(0);
      end = at;
    } else if (/\bchunked\b/i.test(field('transfer-encoding') ?? '')) {
      const decoded = dechunk(buffer, at);
      if (decoded === 'more') return closed ? { error: 'a truncated chunked body' } : 'more';
      if ('error' in decoded) return decoded;
      ({ body: wireBody, end } = decoded);
    } else if (field('content-length') !== null) {
      const length = Number(field('content-length'));
      if (buffer.length < at + length) return closed ? { error: 'a body shorter than its Content-Length' } : 'more';
      wireBody = buffer.subarray(at, at + length);
      end = at + length;
    } else {
      // Delimited by the end of the connection.
      if (!closed) return 'more';
      wireBody = buffer.subarray(at);
      end = buffer.length;
    }
    const { body, decodeError } = decodeBody(field('content-encoding'), wireBody);
    const headers: Record<string, string> = {};
    for (const [name, value] of headerList) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    const text = body.toString('utf8');
    let json: RawResponse['json'];
    try {
      json = text && /json/.test(headers['content-type'] ?? '') ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const response: RawResponse = { status, interim, headerList, wireBody, body, ...(decodeError ? { decodeError } : {}), headers, text, json, at: arrivedAt };
    return { response, consumed: end };
  }
}

/**
 * Opens a connection to 127.0.0.1:`port` (from `localAddress`, when given), and for each step
 * waits its pause, writes its bytes and waits for its answers. Stops early when the server closes
 * or resets the connection, or goes quiet for `timeoutMs`; the answers parsed so far are returned
 * with how it ended. Every exchange is noted for the run's check of answers against the API
 * document (test/support/observed.ts).
 */
export function rawExchange(port: number, steps: RawStep[], options: RawOptions = {}): Promise<RawExchange> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true, localAddress: options.localAddress });
    socket.setNoDelay(true);
    const responses: RawResponse[] = [];
    const received: Buffer[] = [];
    const sent: Buffer[] = [];
    let buffer = Buffer.alloc(0);
    let closed = false;
    let closedAt: number | undefined;
    let failed = false;
    let step = -1;
    let waitingFor: string[] = [];
    let pausing = false;
    let timer: NodeJS.Timeout | undefined;
    let pauseTimer: NodeJS.Timeout | undefined;
    const destroyTimer = options.destroyAfterMs === undefined ? undefined : setTimeout(() => finish('abandoned'), options.destroyAfterMs);
    let settled = false;
    const shown = (bytes: Buffer) => JSON.stringify(bytes.subarray(0, 120).toString('latin1'));

    const finish = (ending: Ending, garbage?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(pauseTimer);
      clearTimeout(destroyTimer);
      socket.destroy();
      recordRawExchange(Buffer.concat(sent).toString('latin1'), responses.map((response) => response.status));
      resolve({ responses, ending, ...(garbage ? { garbage } : {}), closedAt, raw: Buffer.concat(received).toString('latin1') });
    };
    const armTimer = () => {
      clearTimeout(timer);
      if (!pausing) timer = setTimeout(() => finish('timeout'), timeoutMs);
    };
    const nextStep = () => {
      step++;
      if (step >= steps.length) return options.readUntilClose ? armTimer() : finish('answered');
      const current = steps[step];
      const write = () => {
        pausing = false;
        if (settled) return;
        waitingFor = [...current.methods];
        if (typeof current.bytes === 'function') current.bytes(socket);
        else {
          const bytes = Buffer.isBuffer(current.bytes) ? current.bytes : Buffer.from(current.bytes, 'utf8');
          sent.push(bytes);
          socket.write(bytes);
          if (step === steps.length - 1 && options.endAfterWrite) socket.end();
        }
        armTimer();
        if (waitingFor.length === 0) setImmediate(pump);
      };
      if (current.pauseMs) {
        pausing = true;
        clearTimeout(timer);
        pauseTimer = setTimeout(write, current.pauseMs);
      } else write();
    };
    const pump = () => {
      if (settled) return;
      for (;;) {
        const expected = waitingFor.length > 0;
        // Past what the steps wait for, more bytes are garbage, unless reading on until the close.
        if (!expected && !(options.readUntilClose && buffer.length > 0)) break;
        const parsed = parseResponse(buffer, waitingFor[0] ?? 'GET', closed, Date.now() - started);
        if (parsed === 'more') break;
        if ('error' in parsed) return finish(failed ? 'reset' : 'closed', `${parsed.error}: ${shown(buffer)}`);
        responses.push(parsed.response);
        buffer = buffer.subarray(parsed.consumed);
        if (expected) waitingFor.shift();
      }
      if (waitingFor.length > 0) {
        if (closed) finish(failed ? 'reset' : 'closed', buffer.length ? `unparsed: ${shown(buffer)}` : undefined);
        return;
      }
      if (pausing || step >= steps.length) return;
      if (buffer.length > 0 && !options.readUntilClose && steps.slice(step + 1).every((next) => next.methods.length === 0)) {
        // More bytes than answers asked for: an answer nobody expected.
        return finish('answered', `unexpected bytes: ${shown(buffer)}`);
      }
      nextStep();
    };
    const ended = (ending: Ending) => {
      closed = true;
      if (!settled) closedAt ??= Date.now() - started;
      pump();
      finish(ending);
    };

    socket.on('connect', nextStep);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      buffer = Buffer.concat([buffer, chunk]);
      armTimer();
      pump();
    });
    socket.on('end', () => ended('closed'));
    socket.on('error', () => {
      failed = true;
      ended('reset');
    });
    socket.on('close', () => ended(failed ? 'reset' : 'closed'));
  });
}

/** One request on a connection of its own, and its answer; throws when none came. */
export async function rawAnswer(port: number, bytes: RawStep['bytes'], options: RawOptions & { method?: string } = {}): Promise<RawResponse> {
  const exchange = await rawExchange(port, [{ bytes, methods: [options.method ?? 'GET'] }], options);
  if (!exchange.responses[0]) throw new Error(`no answer (${exchange.ending}${exchange.garbage ? `, ${exchange.garbage}` : ''})`);
  return exchange.responses[0];
}

/** The bytes `steps` write, as latin1 text (a writer's stream left out). */
export function bytesOf(steps: RawStep[]): string {
  return steps.map((step) => (typeof step.bytes === 'function' ? '' : Buffer.from(step.bytes).toString('latin1'))).join('');
}

/** A request's head and body as text: CRLF line ends, a Host unless one is given. */
export function rawRequest(requestLine: string, headers: Record<string, string | number> = {}, body = ''): string {
  const lines = [requestLine, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'host')) lines.splice(1, 0, 'Host: plants.test');
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The request head and body as bytes: `head` lines joined with CRLF, an empty line, then `body`. */
export function requestBytes(head: string[], body: Buffer | string = ''): Buffer {
  return Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8')]);
}

/** A chunked body: each piece as one chunk, then the last chunk and `trailer` lines. */
export function chunked(pieces: (string | Buffer)[], trailer: string[] = []): Buffer {
  const parts: Buffer[] = [];
  for (const piece of pieces) {
    const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece, 'utf8');
    if (bytes.length === 0) continue;
    parts.push(Buffer.from(`${bytes.length.toString(16)}\r\n`), bytes, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`0\r\n${trailer.map((line) => `${line}\r\n`).join('')}\r\n`));
  return Buffer.concat(parts);
}
