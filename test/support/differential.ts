// Comparing what two servers answered to the same bytes (test/api/differential.test.ts): what may
// differ because it must (request ids, timestamps, nonces, seconds left in a window), what differs
// on purpose (DELIBERATE_DIFFERENCES, listed in docs/testing.md), and anything else, which is a bug.
import { headerValue, type RawExchange, type RawResponse } from './raw-socket';

/** The direct path's documented differences from Next (docs/testing.md; docs/decisions.md, Compression). */
export const DELIBERATE_DIFFERENCES = {
  /**
   * The server's compressor compresses an answer Next streams without a length when asked to, even a
   * 30-byte one (making it longer); the direct path's answers have their length, compressed only from 1 KiB.
   */
  gzipBelow1KiB: 'compressed below 1 KiB',
  /** Next's Vary also names its router's request headers (rsc, next-router-*), which the API never varies on. */
  vary: 'Vary without the router headers',
} as const;
export type DeliberateDifference = (typeof DELIBERATE_DIFFERENCES)[keyof typeof DELIBERATE_DIFFERENCES];

/** The compressor's threshold for an answer whose length it knows, as the direct path's are (server/compression.ts). */
export const DIRECT_COMPRESS_FROM_BYTES = 1024;

// Framing and connection bookkeeping: how the bytes travelled, not what the answer says. The body
// is compared decoded, which covers Content-Length; Content-Encoding and Vary are compared apart.
const TRANSPORT_HEADERS = new Set(['date', 'keep-alive', 'transfer-encoding', 'content-length']);
const COMPARED_APART = new Set(['content-encoding', 'vary']);
// Seconds left in a rate-limit window: the two servers answer milliseconds apart, so these may
// differ by one.
const SECONDS_LEFT = new Set(['ratelimit-reset', 'retry-after']);
// The request headers Next's router varies on (Next's own, for pages), never the API's.
const NEXT_ROUTER_VARY = new Set(['rsc', 'next-router-state-tree', 'next-router-prefetch', 'next-router-segment-prefetch']);

/** Values that must differ between any two answers: replaced by placeholders before comparing. */
export function normalise(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/nonce-[A-Za-z0-9+/=]+/g, 'nonce-<nonce>')
    .replace(/nonce="[^"]*"/g, 'nonce="<nonce>"')
    .replace(/retry in \d+ s/g, 'retry in <n> s');
}

/** What a client can tell about one answer, placeholders in. */
export type AnswerView = {
  status: number;
  interim: number[];
  /** The Error body's code, when the body is one. */
  code: number | null;
  headers: Record<string, string>;
  body: string;
  decodeError?: string;
};

function errorCode(response: RawResponse): number | null {
  if (!/json/.test(headerValue(response, 'content-type') ?? '')) return null;
  try {
    const parsed = JSON.parse(response.body.toString('utf8')) as unknown;
    return typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'number' ? parsed.error : null;
  } catch {
    return null;
  }
}

/** A page's body quotes its CSP nonce in places no pattern finds (inside its RSC payload). */
function withoutNonce(response: RawResponse, body: string): string {
  const nonce = /'nonce-([^']+)'/.exec(headerValue(response, 'content-security-policy') ?? '')?.[1];
  return nonce ? body.replaceAll(nonce, '<nonce>') : body;
}

export function viewOf(response: RawResponse): AnswerView {
  const headers: Record<string, string> = {};
  for (const [name] of response.headerList) {
    if (TRANSPORT_HEADERS.has(name) || COMPARED_APART.has(name) || name in headers) continue;
    headers[name] = normalise(headerValue(response, name)!);
  }
  return {
    status: response.status,
    interim: response.interim,
    code: errorCode(response),
    headers,
    body: normalise(withoutNonce(response, response.body.toString('utf8'))),
    ...(response.decodeError ? { decodeError: response.decodeError } : {}),
  };
}

const varyTokens = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);

export type Comparison = {
  /** Each difference that is neither normalised away nor deliberate. */
  differences: string[];
  /** The deliberate differences seen, per answer. */
  deliberate: DeliberateDifference[][];
  viaNext: AnswerView[];
  viaDirect: AnswerView[];
};

/**
 * How far apart the two servers' rate-limit counts are. They count in step while every request is
 * counted on both; once one was not (a request one path refused before counting it), every later
 * RateLimit-Remaining differs by as much. That is reported once, where it starts, and later
 * answers are compared net of it, so one divergence does not fail every case after it.
 */
export type CountDrift = { remaining: number };

function differingText(a: string, b: string): string {
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const around = (text: string) => JSON.stringify(text.slice(Math.max(0, at - 80), at + 220));
  return at < 80 && a.length < 300 && b.length < 300
    ? `Next ${JSON.stringify(a)}, direct ${JSON.stringify(b)}`
    : `from character ${at}: Next …${around(a)}, direct …${around(b)}`;
}

/** Compares two exchanges answer by answer; the same request bytes went to both servers. */
export function compareExchanges(viaNext: RawExchange, viaDirect: RawExchange, drift: CountDrift = { remaining: 0 }): Comparison {
  const differences: string[] = [];
  const deliberate: DeliberateDifference[][] = [];
  const nextViews = viaNext.responses.map(viewOf);
  const directViews = viaDirect.responses.map(viewOf);
  // A reset and a close both end the connection; which one a client sees can depend on timing.
  const ending = (exchange: RawExchange) => (exchange.ending === 'reset' ? 'closed' : exchange.ending);
  if (viaNext.responses.length !== viaDirect.responses.length || ending(viaNext) !== ending(viaDirect)) {
    differences.push(
      `Next gave ${viaNext.responses.length} answer(s) and ${ending(viaNext)}, the direct path ${viaDirect.responses.length} and ${ending(viaDirect)}`,
    );
  }
  if (viaNext.garbage !== viaDirect.garbage) differences.push(`unparsed bytes: Next ${viaNext.garbage}, direct ${viaDirect.garbage}`);

  for (let index = 0; index < Math.min(nextViews.length, directViews.length); index++) {
    const [fromNext, fromDirect] = [viaNext.responses[index], viaDirect.responses[index]];
    const [next, direct] = [nextViews[index], directViews[index]];
    const seen: DeliberateDifference[] = [];
    const at = nextViews.length > 1 ? `answer ${index + 1}: ` : '';
    for (const field of ['status', 'interim', 'code', 'decodeError'] as const) {
      if (JSON.stringify(next[field]) !== JSON.stringify(direct[field])) {
        differences.push(`${at}${field}: Next ${JSON.stringify(next[field])}, direct ${JSON.stringify(direct[field])}`);
      }
    }
    if (next.body !== direct.body) differences.push(`${at}body ${differingText(next.body, direct.body)}`);
    for (const name of new Set([...Object.keys(next.headers), ...Object.keys(direct.headers)])) {
      const [a, b] = [next.headers[name], direct.headers[name]];
      if (a === b || name === 'ratelimit-remaining') continue;
      if (SECONDS_LEFT.has(name) && /^\d+$/.test(a ?? '') && /^\d+$/.test(b ?? '') && Math.abs(Number(a) - Number(b)) <= 1) continue;
      differences.push(`${at}header ${name}: Next ${JSON.stringify(a)}, direct ${JSON.stringify(b)}`);
    }

    const [nextVary, directVary] = [headerValue(fromNext, 'vary'), headerValue(fromDirect, 'vary')];
    if (nextVary !== directVary) {
      const withoutRouter = varyTokens(nextVary).filter((token) => !NEXT_ROUTER_VARY.has(token.toLowerCase()));
      if (withoutRouter.join(', ') === varyTokens(directVary).join(', ')) seen.push(DELIBERATE_DIFFERENCES.vary);
      else differences.push(`${at}header vary: Next ${JSON.stringify(nextVary)}, direct ${JSON.stringify(directVary)}`);
    }
    const [nextCoding, directCoding] = [headerValue(fromNext, 'content-encoding'), headerValue(fromDirect, 'content-encoding')];
    if (nextCoding !== directCoding) {
      if (nextCoding !== null && directCoding === null && fromDirect.body.length < DIRECT_COMPRESS_FROM_BYTES) seen.push(DELIBERATE_DIFFERENCES.gzipBelow1KiB);
      else differences.push(`${at}header content-encoding: Next ${JSON.stringify(nextCoding)}, direct ${JSON.stringify(directCoding)}`);
    }
    deliberate.push(seen);
  }
  differences.push(...remainingDifferences(viaNext, viaDirect, drift));
  return { differences, deliberate, viaNext: nextViews, viaDirect: directViews };
}

/**
 * RateLimit-Remaining, compared as the set of counts the exchange used up, net of the drift before
 * it: Node runs pipelined requests side by side, so which of them counted first differs from run to
 * run.
 */
function remainingDifferences(viaNext: RawExchange, viaDirect: RawExchange, drift: CountDrift): string[] {
  const counts = (exchange: RawExchange) =>
    exchange.responses
      .map((response) => headerValue(response, 'ratelimit-remaining'))
      .filter((value) => value !== null)
      .map(Number)
      .sort((a, b) => a - b);
  const [next, direct] = [counts(viaNext), counts(viaDirect)];
  if (next.length !== direct.length) return [`ratelimit-remaining on ${next.length} answer(s) from Next, ${direct.length} from the direct path`];
  if (next.length === 0) return [];
  const apart = next[0] - direct[0];
  const before = drift.remaining;
  drift.remaining = apart;
  if (apart !== before) return [`ratelimit-remaining: Next ${next.join(', ')}, direct ${direct.join(', ')} (counts ${before} apart before)`];
  if (next.some((count, index) => count !== direct[index] + apart)) return [`ratelimit-remaining: Next ${next.join(', ')}, direct ${direct.join(', ')}`];
  return [];
}

/** Problems with an answer whichever path gave it: the rules for every answer to client input. */
export function answerFaults(exchange: RawExchange): string[] {
  const faults: string[] = [];
  for (const response of exchange.responses) {
    if (response.status >= 500) faults.push(`a ${response.status} answer to client input: ${response.body.toString('utf8').slice(0, 200)}`);
    if (/\n\s+at .+:\d+:\d+\)?/.test(response.body.toString('utf8'))) faults.push('a stack trace in an answer');
  }
  return faults;
}

/** The credentials a request may carry, set once the tokens exist. */
export const credentials = { main: '', readOnly: '', limited: '', cron: 'cron-secret-for-the-differential-test' };

/** One request, written out as bytes by requestOf(). Every field has a plain, valid default. */
export type RequestSpec = {
  method?: string;
  target: string;
  version?: string;
  /** The Host line's value; null leaves the line out. Default 127.0.0.1. */
  host?: string | null;
  /** A token by name, 'none', or a whole Authorization value. Default main. */
  auth?: 'main' | 'readOnly' | 'limited' | 'cron' | 'none' | { raw: string };
  /** More header lines, as written. */
  headers?: string[];
  body?: string | Buffer;
  /** Content-Type for the body (default application/json when there is one); null for none. */
  contentType?: string | null;
  /** Content-Length (default the body's length when there is one); null for none. */
  contentLength?: number | null;
};

function authorizationLine(auth: RequestSpec['auth']): string[] {
  if (auth === 'none') return [];
  if (typeof auth === 'object') return [`Authorization: ${auth.raw}`];
  const kind = auth ?? 'main';
  return [`Authorization: Bearer ${credentials[kind]}`];
}

/** The bytes of one request (head in latin1: a caller wanting UTF-8 in it passes utf8InHead()). */
export function requestOf(spec: RequestSpec): { bytes: Buffer; method: string } {
  const method = spec.method ?? 'GET';
  const body = spec.body === undefined ? undefined : Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(spec.body, 'utf8');
  const head = [`${method} ${spec.target} ${spec.version ?? 'HTTP/1.1'}`];
  if (spec.host !== null) head.push(`Host: ${spec.host ?? '127.0.0.1'}`);
  head.push(...authorizationLine(spec.auth));
  if (body !== undefined && spec.contentType !== null) head.push(`Content-Type: ${spec.contentType ?? 'application/json'}`);
  const length = spec.contentLength === undefined ? body?.length : spec.contentLength;
  if (length !== undefined && length !== null) head.push(`Content-Length: ${length}`);
  head.push(...(spec.headers ?? []));
  return { bytes: Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body ?? Buffer.alloc(0)]), method };
}

/** UTF-8 text as the latin1 string whose bytes are its UTF-8 bytes, for a request head. */
export const utf8InHead = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
