// Every (method, path, status) the test servers answer, noted as the tests run, so that the run
// can check each one against /openapi.json (global-setup.ts: an answer the document does not
// declare fails the run). fetch is observed once per process (env.ts); the raw-socket helpers note
// their exchanges through recordRawExchange.
import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where this project's observed answers go, one JSON line each. */
    observedFile: string;
  }
}

export type Observed = { method: string; target: string; status: number };

/** Notes that a test server answered `method target` (its path, or a raw request target) with `status`. */
export function recordObserved(method: string, target: string, status: number): void {
  appendFileSync(inject('observedFile'), `${JSON.stringify({ method: method.toUpperCase(), target, status } satisfies Observed)}\n`);
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const OBSERVING = Symbol.for('plant-store.test.observed-fetch');

/** From now on, every answer fetch() gets from a server on this machine is noted (once, however often it is called). */
export function observeFetch(): void {
  const fetchFromNetwork = globalThis.fetch;
  if ((fetchFromNetwork as { [OBSERVING]?: true })[OBSERVING]) return;
  globalThis.fetch = Object.assign(async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const response = await fetchFromNetwork(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (LOCAL_HOSTS.has(url.hostname)) recordObserved(init?.method ?? (input instanceof Request ? input.method : 'GET'), url.pathname, response.status);
    return response;
  }, { [OBSERVING]: true as const });
}

/**
 * The request lines of raw HTTP/1.1 bytes, in order, read as a server would: each head, then its
 * body by Content-Length or chunked framing. Stops at what it cannot frame (a refused request
 * closes the connection there anyway).
 */
export function requestLinesOf(bytes: string): { method: string; target: string }[] {
  const lines: { method: string; target: string }[] = [];
  let at = 0;
  while (at < bytes.length) {
    const headEnd = bytes.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const [requestLine, ...fields] = bytes.slice(at, headEnd).split('\r\n');
    const parts = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine);
    if (!parts) break;
    lines.push({ method: parts[1], target: parts[2] });
    const field = (name: string) => fields.find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
    at = headEnd + 4;
    if (field('transfer-encoding')?.toLowerCase() === 'chunked') {
      for (;;) {
        const sizeEnd = bytes.indexOf('\r\n', at);
        const size = Number.parseInt(bytes.slice(at, sizeEnd), 16);
        if (sizeEnd === -1 || Number.isNaN(size)) return lines;
        at = sizeEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else {
      at += Number(field('content-length') ?? 0) || 0;
    }
  }
  return lines;
}

/**
 * Notes the answers of a raw exchange, each against the request it answers, when that can be told:
 * as many final answers as request lines (interim 1xx answers are left out).
 */
export function recordRawExchange(sentBytes: string, statuses: number[]): void {
  const sent = requestLinesOf(sentBytes);
  const finals = statuses.filter((status) => status >= 200);
  if (sent.length === finals.length) finals.forEach((status, index) => recordObserved(sent[index].method, sent[index].target, status));
}

type PathItem = Record<string, { responses: Record<string, unknown> }>;

/**
 * The observed answers the document does not declare, each once, as "METHOD /template status"
 * and the first request seen answered so.
 * A target is taken as the path a server would route (origin or absolute form); `*`, paths the
 * document lacks and OPTIONS (answered by the router, not an operation) are outside it. HEAD is
 * GET's. A method the path has no operation for must be answered with a status one of the path's
 * operations declares (405, or a refusal made before routing, 400 or 431).
 */
export function undeclared(document: { paths: Record<string, PathItem> }, observed: Observed[]): string[] {
  const templates = Object.keys(document.paths).map((template) => ({
    template,
    literal: !template.includes('{'),
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`),
  }));
  const missing = new Map<string, string>();
  for (const { method, target, status } of observed) {
    if (method === 'OPTIONS' || target === '*' || status < 200) continue;
    let path: string;
    try {
      // Dot segments (%2e too) resolved, as the router resolves them; a non-special scheme keeps
      // backslashes, which Next's router answers with a redirect to the slash form, not an operation.
      path = new URL(target, 'x-target://server.test').pathname;
    } catch {
      continue;
    }
    // Empty segments too (`///plants/1`): the router redirects to the path without them.
    if (path.includes('\\') || (target.startsWith('/') && target.split(/[?#]/)[0].includes('//'))) continue;
    const matching = templates.filter((template) => template.pattern.test(path));
    const found = matching.find((template) => template.literal) ?? matching[0];
    if (!found) continue;
    const item = document.paths[found.template];
    const operation = item[method === 'HEAD' ? 'get' : method.toLowerCase()];
    const declared = operation
      ? String(status) in operation.responses
      : Object.values(item).some((other) => String(status) in other.responses);
    const pair = `${method} ${found.template} ${status}`;
    if (!declared && !missing.has(pair)) missing.set(pair, `${pair} (${method} ${target.length > 80 ? `${target.slice(0, 80)}...` : target})`);
  }
  return [...missing.keys()].sort().map((pair) => missing.get(pair)!);
}
