// Building responses: JSON with exact int64 ids, and the Error body.
import { ERROR_CATALOGUE, ApiError } from './errors';
import { stringifyJson } from './json';

const JSON_TYPE = 'application/json; charset=utf-8';

export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', JSON_TYPE);
  return new Response(stringifyJson(body), { ...init, headers });
}

export function noContent(headers?: HeadersInit): Response {
  return new Response(null, { status: 204, headers });
}

/** The Error response for an ApiError; anything else is a fault and gets a generic 500. */
export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    return json({ error: error.code, message: error.message }, { status: error.status, headers: error.headers });
  }
  const { code, status } = ERROR_CATALOGUE.internal;
  return json(
    { error: code, message: 'Internal error: the server could not complete the request. Quote the x-request-id header when reporting it.' },
    { status },
  );
}
