// HTTP/1.1 spoken byte for byte over node:net, as a hostile client would: requests are written
// exactly as given (no client library fixes a Host header, a target or a framing error), and
// answers are parsed here, pipelined ones included, with their chunked framing and gzip undone.
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
};

/** How an exchange ended. */
export type Ending =
  | 'answered' // every expected answer arrived
  | 'closed' // the server closed the connection first
  | 'reset' // the connection failed (ECONNRESET, EPIPE)
  | 'timeout'; // nothing more arrived in time

export type RawExchange = {
  responses: RawResponse[];
  ending: Ending;
  /** Bytes after the last parsed answer that are not an HTTP answer. */
  garbage?: string;
};

/** A step: write these bytes, then wait for this many answers (to requests with these methods). */
export type RawStep = {
  bytes: Buffer;
  /** The method of each request whose answer this step waits for (HEAD answers have no body). */
  methods: string[];
};

export type RawOptions = {
  /** How long to wait for each step's answers, in ms. */
  timeoutMs?: number;
  /** Half-close the connection after the last write (the client sends nothing more). */
  endAfterWrite?: boolean;
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
function parseResponse(buffer: Buffer, method: string, closed: boolean): Parsed {
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
    return { response: { status, interim, headerList, wireBody, body, ...(decodeError ? { decodeError } : {}) }, consumed: end };
  }
}

/**
 * Opens a connection to 127.0.0.1:`port`, and for each step writes its bytes and waits for its
 * answers. Stops early when the server closes or resets the connection, or goes quiet for
 * `timeoutMs`; the answers parsed so far are returned with how it ended.
 */
export function rawExchange(port: number, steps: RawStep[], options: RawOptions = {}): Promise<RawExchange> {
  const timeoutMs = options.timeoutMs ?? 5000;
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    socket.setNoDelay(true);
    const responses: RawResponse[] = [];
    let buffer = Buffer.alloc(0);
    let closed = false;
    let failed = false;
    let step = -1;
    let waitingFor: string[] = [];
    let timer: NodeJS.Timeout | undefined;
    let settled = false;

    const finish = (ending: Ending, garbage?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const sent = Buffer.concat(steps.slice(0, step + 1).map((each) => each.bytes)).toString('latin1');
      recordRawExchange(sent, responses.map((response) => response.status));
      resolve({ responses, ending, ...(garbage ? { garbage } : {}) });
    };
    const armTimer = () => {
      clearTimeout(timer);
      timer = setTimeout(() => finish('timeout'), timeoutMs);
    };
    const nextStep = () => {
      step++;
      if (step >= steps.length) return finish('answered');
      waitingFor = [...steps[step].methods];
      socket.write(steps[step].bytes);
      if (step === steps.length - 1 && options.endAfterWrite) socket.end();
      armTimer();
      if (waitingFor.length === 0) setImmediate(() => !settled && step < steps.length && pump());
    };
    const pump = () => {
      while (waitingFor.length > 0) {
        const parsed = parseResponse(buffer, waitingFor[0], closed);
        if (parsed === 'more') break;
        if ('error' in parsed) return finish(failed ? 'reset' : 'closed', `${parsed.error}: ${JSON.stringify(buffer.subarray(0, 120).toString('latin1'))}`);
        responses.push(parsed.response);
        buffer = buffer.subarray(parsed.consumed);
        waitingFor.shift();
      }
      if (waitingFor.length === 0) {
        if (buffer.length > 0 && steps.slice(step + 1).every((next) => next.methods.length === 0)) {
          // More bytes than answers asked for: an answer nobody expected.
          return finish('answered', `unexpected bytes: ${JSON.stringify(buffer.subarray(0, 120).toString('latin1'))}`);
        }
        return nextStep();
      }
      if (closed) finish(failed ? 'reset' : 'closed', buffer.length ? `unparsed: ${JSON.stringify(buffer.subarray(0, 120).toString('latin1'))}` : undefined);
    };

    socket.on('connect', nextStep);
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      armTimer();
      pump();
    });
    socket.on('end', () => {
      closed = true;
      pump();
      finish('closed');
    });
    socket.on('error', () => {
      failed = true;
      closed = true;
      pump();
      finish('reset');
    });
    socket.on('close', () => {
      closed = true;
      pump();
      finish(failed ? 'reset' : 'closed');
    });
  });
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
