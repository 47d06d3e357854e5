// The failures the rules can refuse with (lib/plants, lib/auth, lib/webhooks, lib/audit, lib/db all
// throw ApiError), and the one catalogue of their Error codes and statuses. The domain throws them
// without knowing HTTP; lib/http turns each into its answer (lib/http/error-response.ts), as do
// server/direct-routes.ts and the server actions' wrapper (lib/auth/server-action.ts).
// Codes are stable: clients may branch on them. Each is the status times 100 plus a number.

export const ERROR_CATALOGUE = {
  invalid_json: { code: 40001, status: 400, meaning: 'The body is empty or is not valid JSON.' },
  validation_failed: {
    code: 40002,
    status: 400,
    meaning: 'The body is JSON but breaks a schema rule; the message names each field and rule.',
  },
  invalid_parameter: { code: 40003, status: 400, meaning: 'A query or path parameter is out of range or malformed.' },
  bad_request: {
    code: 40004,
    status: 400,
    meaning:
      'The request cannot be read as HTTP: a malformed request line, header or chunked body, conflicting `Content-Length` and `Transfer-Encoding`, or a request that cannot be turned into one the handlers can take. The connection is closed.',
  },
  invalid_precondition: {
    code: 40005,
    status: 400,
    meaning: '`If-Match` or `If-None-Match` is not `*` or a list of quoted entity tags.',
  },
  unreadable_page_request: {
    code: 40006,
    status: 400,
    meaning:
      'A page request that Next.js cannot read: a router state header (`Next-Router-State-Tree`, with `RSC: 1`) or a Server Action body (form data, or the JSON of an action call) that does not parse.',
  },
  invalid_webhook_url: {
    code: 40010,
    status: 400,
    meaning: 'A webhook URL is malformed, too long, carries credentials, or is not https:// (http:// only with WEBHOOK_ALLOW_PRIVATE_URLS=1).',
  },
  webhook_url_refused: {
    code: 40011,
    status: 400,
    meaning: 'A webhook URL names, or resolves to, an address that is not public (loopback, private, link-local, metadata...), or does not resolve.',
  },
  missing_token: { code: 40101, status: 401, meaning: 'No `Authorization: Bearer <token>` header was sent.' },
  invalid_token: { code: 40102, status: 401, meaning: 'The bearer token is malformed, mistyped or unknown.' },
  expired_token: { code: 40103, status: 401, meaning: 'The bearer token has expired.' },
  revoked_token: { code: 40104, status: 401, meaning: 'The bearer token has been revoked, or the sign-in it came from has ended.' },
  account_disabled: { code: 40105, status: 401, meaning: 'The account the bearer token belongs to is disabled.' },
  insufficient_scope: {
    code: 40301,
    status: 403,
    meaning: 'The bearer token lacks the scope the operation needs; `WWW-Authenticate` names it.',
  },
  admins_only: { code: 40302, status: 403, meaning: 'The signed-in staff member is not an admin, and only admins may do that (downloading a backup).' },
  not_found: { code: 40401, status: 404, meaning: 'No plant has that id.' },
  webhook_not_found: { code: 40402, status: 404, meaning: 'No webhook endpoint has that id.' },
  backup_not_found: { code: 40404, status: 404, meaning: 'No backup of that name is in BACKUP_DIR.' },
  delivery_not_found: { code: 40403, status: 404, meaning: 'No webhook delivery has that id, or it cannot be resent (only failed ones can).' },
  auth_endpoint_not_found: {
    code: 40405,
    status: 404,
    meaning: "No sign-in endpoint at that path: under /api/auth/ only next-auth's own endpoints answer, each exactly as spelled.",
  },
  method_not_allowed: { code: 40501, status: 405, meaning: 'The path does not support that method; see `Allow`.' },
  request_timeout: {
    code: 40801,
    status: 408,
    meaning: 'The request, head and body, did not arrive within `BODY_TIMEOUT_MS` (10 s by default), or the client stopped sending it. The connection is closed.',
  },
  conflict: { code: 40901, status: 409, meaning: 'A plant with that id already exists with a different name or tag.' },
  precondition_failed: {
    code: 41201,
    status: 412,
    meaning: 'The plant has changed since the entity tag in `If-Match` was read; nothing was changed.',
  },
  payload_too_large: { code: 41301, status: 413, meaning: 'The body is larger than the limit (64 KiB; 2 MiB for a batch; 8 KiB for sign-in).' },
  expectation_failed: {
    code: 41701,
    status: 417,
    meaning: 'The request has an `Expect` header other than `100-continue`, the only expectation this server meets.',
  },
  too_many_items: { code: 41302, status: 413, meaning: 'A batch has more than 1000 items.' },
  unsupported_media_type: {
    code: 41501,
    status: 415,
    meaning: 'The body is not sent as `application/json` (or, for PATCH, `application/merge-patch+json`).',
  },
  headers_too_large: {
    code: 43101,
    status: 431,
    meaning: "The request's head (request line and headers) is larger than the server accepts (16 KiB). The connection is closed.",
  },
  rate_limited: {
    code: 42901,
    status: 429,
    meaning: 'Too many requests for this token this minute (RATE_LIMIT_PER_MINUTE); retry after `Retry-After` seconds.',
  },
  too_many_failed_authentications: {
    code: 42902,
    status: 429,
    meaning:
      'Too many failed authentications from this address this minute (AUTH_FAILURES_PER_MINUTE); retry after `Retry-After` seconds. Tokens this server has seen valid are not refused.',
  },
  too_many_password_attempts: {
    code: 42903,
    status: 429,
    meaning:
      'Too many sign-in or set-password attempts from this address this minute (PASSWORD_ATTEMPTS_PER_MINUTE); retry after `Retry-After` seconds.',
  },
  internal: { code: 50001, status: 500, meaning: 'A fault on the server. The response carries `x-request-id` for the log.' },
  unavailable: { code: 50301, status: 503, meaning: 'The database does not answer.' },
  password_hashing_busy: {
    code: 50302,
    status: 503,
    meaning: 'The server is checking as many passwords at once as it allows (PASSWORD_HASH_CONCURRENCY), with a queue as long; retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { code: number; status: number; meaning: string }>;

export type ErrorKind = keyof typeof ERROR_CATALOGUE;

/** The message of every 500 (50001): the detail stays in the log, under the answer's request id. */
export const INTERNAL_ERROR_MESSAGE = 'Internal error: the server could not complete the request. Quote the x-request-id header when reporting it.';

/** A failure the client can act on. Thrown anywhere below a route; turned into a response once, by lib/http. */
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
