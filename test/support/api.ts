// Talking to a test server the way a client would: one HTTP request, its answer as raw JSON text.
// The project's shared server (test/support/global-setup.ts) is `sharedServer()`; a server of a
// test's own (test/support/fixtures.ts) is passed the same way.
import { randomBytes } from 'node:crypto';
import { expect, inject } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { clockAt, type ServerClock } from './clock';

export type ApiResponse = { status: number; headers: Headers; text: string; body: unknown };

/** A server a test talks to: its base URL (no trailing slash). */
export type Server = { url: string };

/** The project's shared server, started once for all its test files (test/support/global-setup.ts). */
export function sharedServer(): Server & { port: number; clock: ServerClock } {
  const url = inject('baseUrl');
  return { url, port: Number(new URL(url).port), clock: clockAt(inject('clockPort')) };
}

export type RequestOptions = Omit<RequestInit, 'body' | 'headers'> & {
  /** Sent as `Authorization: Bearer <token>` unless the headers name one. */
  token?: string;
  /** A string (or other fetch body) is sent as given; anything else as its JSON. Either is application/json unless the headers say otherwise. */
  body?: RequestInit['body'] | object;
  headers?: Record<string, string>;
};

function isFetchBody(body: unknown): body is NonNullable<RequestInit['body']> {
  return (
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof ReadableStream
  );
}

/** One request to `server`, through fetch (so test/support/observed.ts sees its answer). */
export async function request(server: Server, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
  const { token, body: given, headers: givenHeaders, ...init } = options;
  const headers: Record<string, string> = { ...givenHeaders };
  const named = (name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);
  if (token && !named('authorization')) headers.authorization = `Bearer ${token}`;
  let body: RequestInit['body'] | undefined;
  if (given !== undefined && given !== null) {
    body = isFetchBody(given) ? given : JSON.stringify(given);
    if (typeof body === 'string' && !named('content-type')) headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${server.url}${path}`, { method: 'GET', ...init, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** POST /plants on `server` with `body` as given (raw JSON text). */
export const createOn = (server: Server, token: string, body: string) => request(server, '/plants', { method: 'POST', token, body });

/** A fresh API token, made the way the CLI makes them. */
export async function newToken(name = 'test'): Promise<string> {
  return (await createApiToken({ name }, OPERATOR_COMMAND)).token;
}

/** A random positive id in the int64 range, above 2^53 so precision loss would show. */
export function uniqueId(): bigint {
  return (BigInt(`0x${randomBytes(8).toString('hex')}`) & (2n ** 62n - 1n)) + 2n ** 60n;
}

const LEAKS = /prisma|sqlite|better-sqlite3|node_modules|lossless|zod|\/work\/|\bat \S+ \(|:\d+:\d+\)|stack|SELECT|INSERT/i;

/** Asserts an Error answer: status, code, JSON content type, exactly {error, message}, no internals. */
export function expectError(response: ApiResponse, status: number, code: number, message?: RegExp | string): string {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = response.body as { error: number; message: string };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.error).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.message).not.toMatch(LEAKS);
  if (message !== undefined) expect(body.message).toMatch(message);
  return body.message;
}
