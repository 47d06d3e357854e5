// Building responses: JSON with exact int64 ids, and the Error body.
import type { ApiError } from '../errors';
import { stringifyJson } from '../shared/json';

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', JSON_TYPE);
  return new Response(stringifyJson(body), { ...init, headers });
}

export function noContent(headers?: HeadersInit): Response {
  return new Response(null, { status: 204, headers });
}

/** The Error response of an ApiError (lib/http/error-response.ts answers any failure). */
export function apiErrorResponse(error: ApiError): Response {
  return json({ error: error.code, message: error.message }, { status: error.status, headers: error.headers });
}

/** `response`, marked never to be cached unless it says otherwise (every answer on /api/auth/*). */
export function uncached(response: Response): Response {
  if (!response.headers.has('cache-control')) response.headers.set('cache-control', 'no-store');
  return response;
}
