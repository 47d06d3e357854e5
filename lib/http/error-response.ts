// The answer to any failure below a route: an ApiError's own; 503 with Retry-After when the
// database cannot be reached or used (lib/db/unavailable.ts); anything else is a fault, a 500.
import 'server-only';
import { isDatabaseUnavailable } from '../db/unavailable';
import { ApiError, ERROR_CATALOGUE, INTERNAL_ERROR_MESSAGE } from '../errors';
import { apiErrorResponse, json } from './respond';

// How long a client should wait when the database does not answer (a restart, a fail-over).
const UNAVAILABLE_RETRY_AFTER_SECONDS = '5';

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) return apiErrorResponse(error);
  if (isDatabaseUnavailable(error)) {
    return apiErrorResponse(
      new ApiError('unavailable', 'The database does not answer: retry in a moment', { 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS }),
    );
  }
  const { code, status } = ERROR_CATALOGUE.internal;
  return json({ error: code, message: INTERNAL_ERROR_MESSAGE }, { status });
}
