// The one place that maps failures to HTTP statuses and Error codes.
// Codes are stable: clients may branch on them. Each is the status times 100 plus a number.

export const ERROR_CATALOGUE = {
  invalid_json: { code: 40001, status: 400, meaning: 'The body is empty or is not valid JSON.' },
  validation_failed: {
    code: 40002,
    status: 400,
    meaning: 'The body is JSON but breaks a schema rule; the message names each field and rule.',
  },
  invalid_parameter: { code: 40003, status: 400, meaning: 'A query or path parameter is out of range or malformed.' },
  missing_token: { code: 40101, status: 401, meaning: 'No `Authorization: Bearer <token>` header was sent.' },
  invalid_token: { code: 40102, status: 401, meaning: 'The bearer token is malformed, mistyped or unknown.' },
  expired_token: { code: 40103, status: 401, meaning: 'The bearer token has expired.' },
  revoked_token: { code: 40104, status: 401, meaning: 'The bearer token has been revoked.' },
  not_found: { code: 40401, status: 404, meaning: 'No plant has that id.' },
  method_not_allowed: { code: 40501, status: 405, meaning: 'The path does not support that method; see `Allow`.' },
  conflict: { code: 40901, status: 409, meaning: 'A plant with that id already exists with a different name or tag.' },
  payload_too_large: { code: 41301, status: 413, meaning: 'The body is larger than the limit (64 KiB).' },
  unsupported_media_type: { code: 41501, status: 415, meaning: 'The body is not sent as `application/json`.' },
  rate_limited: {
    code: 42901,
    status: 429,
    meaning: 'Too many requests for this token this minute (RATE_LIMIT_PER_MINUTE); retry after `Retry-After` seconds.',
  },
  internal: { code: 50001, status: 500, meaning: 'A fault on the server. The response carries `x-request-id` for the log.' },
  unavailable: { code: 50301, status: 503, meaning: 'The database does not answer.' },
} as const satisfies Record<string, { code: number; status: number; meaning: string }>;

export type ErrorKind = keyof typeof ERROR_CATALOGUE;

/** A failure the client can act on. Thrown anywhere below a route; turned into a response once. */
export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.kind].status;
  }

  get code(): number {
    return ERROR_CATALOGUE[this.kind].code;
  }
}
