// The answer to any failure below a route: an ApiError's own; 503 with Retry-After when the
// database cannot be reached or used (lib/db/unavailable.ts); anything else is a fault, a 500.
// The refusals operators watch are counted here, where every failure of an API route is answered
// (lib/metrics/registry.ts): rate limits, refused credentials, a database busy or down.
import 'server-only';
import { isDatabaseUnavailable } from '../db/unavailable';
import { ApiError, ERROR_CATALOGUE, INTERNAL_ERROR_MESSAGE, type ErrorKind } from '../errors';
import { AUTH_FAILURE_KINDS, countAuthFailure, countDatabaseBusy, countRateLimited, type AuthFailureKind } from '../metrics/registry';
import { apiErrorResponse, json } from './respond';

// How long a client should wait when the database does not answer (a restart, a fail-over).
const UNAVAILABLE_RETRY_AFTER_SECONDS = '5';

const isAuthFailure = (kind: ErrorKind): kind is Extract<AuthFailureKind, ErrorKind> => (AUTH_FAILURE_KINDS as readonly string[]).includes(kind);

function count(kind: ErrorKind): void {
  if (kind === 'rate_limited') countRateLimited();
  else if (kind === 'unavailable') countDatabaseBusy();
  else if (isAuthFailure(kind)) countAuthFailure(kind);
}

/** The refusal for a database that does not answer, as every operation and the health check give it. */
export function databaseUnavailable(message = 'The database does not answer: retry in a moment'): ApiError {
  return new ApiError('unavailable', message, { 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    count(error.kind);
    return apiErrorResponse(error);
  }
  if (isDatabaseUnavailable(error)) {
    countDatabaseBusy();
    return apiErrorResponse(databaseUnavailable());
  }
  const { code, status } = ERROR_CATALOGUE.internal;
  return json({ error: code, message: INTERNAL_ERROR_MESSAGE }, { status });
}
