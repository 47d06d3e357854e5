// Talking to the test server the way a client would: raw HTTP, raw JSON text.
import { randomBytes } from 'node:crypto';
import { expect, inject } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';

export type ApiResponse = { status: number; headers: Headers; text: string; body: unknown };

export function baseUrl(): string {
  return inject('baseUrl');
}

export async function api(
  path: string,
  options: { method?: string; token?: string; body?: string | object; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization ??= `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl()}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

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
