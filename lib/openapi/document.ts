// The service's published OpenAPI document, generated from the zod schemas that validate requests.
// It is a superset of the contract in spec/plant-store.openapi.yaml (a test keeps it so).
import 'server-only';
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiHeaderObject,
  type ZodOpenApiOperationObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { SCOPE_DESCRIPTIONS, SCOPES, type Scope } from '../auth/scopes';
import { BODY_LIMIT_BYTES } from '../http/body';
import { ERROR_CATALOGUE, type ErrorKind } from '../errors';
import { AuditEvent, ListAuditEventsQuery } from '../schemas/audit';
import { Stats, StatsQuery } from '../schemas/stats';
import { BATCH_BODY_LIMIT_BYTES, BatchResult, NewPlantBatch } from '../schemas/batch';
import { ErrorBody } from '../schemas/error';
import { ListPlantsQuery, PlantFilterQuery } from '../schemas/list';
import { BATCH_MAX_ITEMS } from '../schemas/limits';
import { NewPlant, Plant, PlantId, PlantPatch } from '../schemas/plant';

// The response headers clients use, each described once (components.headers) and referred to
// wherever it is sent. x-request-id and the RateLimit-* ones are added to every answer below
// (withStandardHeaders), as lib/http/route.ts adds them to every answer it makes.
const HEADERS = {
  'x-request-id': {
    description: 'Identifies the request in the server log: the caller\'s own `X-Request-Id` when it is 1-64 of `A-Za-z0-9._:-`, else a fresh UUID.',
    schema: { type: 'string' },
  },
  'RateLimit-Limit': { description: 'Requests this token may make per minute (`RATE_LIMIT_PER_MINUTE`). On every answer once the token is known (not on 401s); absent when rate limiting is off.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current one-minute window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  'WWW-Authenticate': {
    description:
      'RFC 6750 challenge: `Bearer realm="plants"`, with `error="invalid_token"` when a token was sent, or (403) `error="insufficient_scope", scope="<the scope needed>"`.',
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods this path supports.', schema: { type: 'string', example: 'GET, HEAD, POST, OPTIONS' } },
  'Next-Cursor': { description: 'The cursor of the next page, when there is one.', schema: { type: 'string' } },
  Link: { description: 'RFC 8288 link to the next page (`rel="next"`), as a path on this service.', schema: { type: 'string' } },
  'X-Total-Count': {
    description: 'With `count=true`: how many plants the filters match, on all pages.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Idempotent-Replayed': {
    description: '`true` when the plant already existed with the same content and nothing was written.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Content-Disposition': { description: '`attachment; filename="plants.csv"`: browsers save the answer as a file.', schema: { type: 'string' } },
  ETag: {
    description:
      "The plant's strong entity tag: it changes whenever the plant's name or tag does. Send it back in `If-Match` to change the plant only if nobody else has.",
    schema: { type: 'string', example: '"3q9Zk1xB0a7yP2cR5mTw4Q"' },
  },
} satisfies Record<string, ZodOpenApiHeaderObject>;
type HeaderName = keyof typeof HEADERS;

/** References to the named headers of components.headers. */
const headers = (...names: HeaderName[]): ZodOpenApiResponseObject['headers'] =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const errorResponse = (
  description: string,
  kinds: ErrorKind[],
  headers?: ZodOpenApiResponseObject['headers'],
): ZodOpenApiResponseObject => ({
  description: `${description} Codes: ${kinds.map((kind) => `${ERROR_CATALOGUE[kind].code} (${kind})`).join(', ')}.`,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ErrorBody } },
});

/**
 * What any request may be answered, whatever the operation: the request could not be read as
 * HTTP (400 40004, 408, 417, 431: answered before any handler, lib/http/client-error.ts), the path
 * does not take the method (405), a fault (500) or a database that does not answer (503).
 */
const transportErrors = (badRequest: ErrorKind[]): ZodOpenApiResponsesObject => ({
  '400': errorResponse('The request is malformed or breaks a rule.', ['bad_request', ...badRequest]),
  '405': errorResponse('This path does not take that method.', ['method_not_allowed'], headers('Allow')),
  '408': errorResponse('The request, or its body, did not arrive in time (`BODY_TIMEOUT_MS`).', ['request_timeout']),
  '417': errorResponse('The request has an `Expect` header other than `100-continue`.', ['expectation_failed']),
  '431': errorResponse('The request\'s header fields are too large.', ['headers_too_large']),
  '500': errorResponse('A fault on the server; quote x-request-id.', ['internal']),
  '503': errorResponse('The database does not answer, or stayed busy; retry after `Retry-After` seconds.', ['unavailable'], headers('Retry-After')),
});

/** Failures every authenticated operation can answer with. */
const commonErrors = (badRequest: ErrorKind[]): ZodOpenApiResponsesObject => ({
  ...transportErrors(badRequest),
  '401': errorResponse(
    'The bearer token is missing, malformed, unknown, expired or revoked, or its account is disabled.',
    ['missing_token', 'invalid_token', 'expired_token', 'revoked_token', 'account_disabled'],
    headers('WWW-Authenticate'),
  ),
  '403': errorResponse('The bearer token lacks the scope this operation needs (see its security requirement).', ['insufficient_scope'], headers('WWW-Authenticate')),
  '429': errorResponse(
    'Too many requests for this token this minute, or too many failed authentications from this address; retry after `Retry-After` seconds.',
    ['rate_limited', 'too_many_failed_authentications'],
    headers('Retry-After'),
  ),
});

/** The security requirement of an operation that needs `scope` (OpenAPI 3.1 lets a bearer scheme name scopes). */
const needs = (scope: Scope): Pick<ZodOpenApiOperationObject, 'security'> => ({ security: [{ bearerAuth: [scope] }] });

const plantPath = { path: z.object({ id: PlantId }) };

const etagHeader = headers('ETag');

const ifMatch = z.object({
  'If-Match': z.string().optional().meta({
    description:
      'Change the plant only if its current ETag is one of these (or, with `*`, if it exists); otherwise 412 and nothing changes. Leave it out to change it whatever it holds.',
  }),
});

const preconditionFailed = errorResponse(
  'The plant has changed since the ETag in If-Match was read; nothing was changed. Read it again and retry.',
  ['precondition_failed'],
);

const createPlant: ZodOpenApiOperationObject = {
  operationId: 'createPlant',
  ...needs('plants:write'),
  summary: 'Create plant',
  description:
    'Creates a new plant in the store. Retrying with the same id, name and tag answers 200 with the stored plant ' +
    '(and `Idempotent-Replayed: true`); the same id with another name or tag is a 409. ' +
    `Ids are int64 and are kept digit for digit; the body may be at most ${BODY_LIMIT_BYTES} bytes.`,
  requestBody: { required: true, content: { 'application/json': { schema: NewPlant } } },
  responses: {
    '200': {
      description: 'Plant response',
      headers: headers('ETag', 'Idempotent-Replayed'),
      content: { 'application/json': { schema: Plant } },
    },
    ...commonErrors(['invalid_json', 'validation_failed']),
    '409': errorResponse('A plant with that id exists with a different name or tag.', ['conflict']),
    '413': errorResponse('The body is too large.', ['payload_too_large']),
    '415': errorResponse('The body is not application/json.', ['unsupported_media_type']),
  },
};

/** A page of a list: a bare array, with the headers that lead to the next page. */
const pageOf = (description: string, item: z.core.$ZodType, ...more: (keyof typeof HEADERS)[]): ZodOpenApiResponseObject => ({
  description,
  headers: headers('Next-Cursor', 'Link', ...more),
  content: { 'application/json': { schema: z.array(item) } },
});

const listPlants: ZodOpenApiOperationObject = {
  operationId: 'listPlants',
  ...needs('plants:read'),
  summary: 'List plants',
  description:
    'Plants, newest first or in the `sort` asked for, all of them or those matching `q` (a piece of the name, in any case) and `tag` (exactly). ' +
    'When more remain, the response carries `Next-Cursor` and `Link: <...>; rel="next"`: ' +
    'pass the cursor back as `?cursor=` (with the same `limit`, filters and sort) for the next page. No `Next-Cursor` means the last page. ' +
    'With `count=true`, `X-Total-Count` says how many plants the filters match.',
  requestParams: { query: ListPlantsQuery },
  responses: {
    '200': pageOf('A page of plants, in the order asked for (newest first by default).', Plant, 'X-Total-Count'),
    ...commonErrors(['invalid_parameter']),
  },
};

const getPlant: ZodOpenApiOperationObject = {
  operationId: 'getPlant',
  ...needs('plants:read'),
  summary: 'Get a plant',
  requestParams: {
    ...plantPath,
    header: z.object({
      'If-None-Match': z.string().optional().meta({
        description: 'Answer 304 without a body if the plant\'s ETag is one of these (or, with `*`, if it exists).',
      }),
    }),
  },
  responses: {
    '200': { description: 'The plant.', headers: etagHeader, content: { 'application/json': { schema: Plant } } },
    '304': { description: 'The plant is as the ETag in If-None-Match says.', headers: etagHeader },
    ...commonErrors(['invalid_parameter', 'invalid_precondition']),
    '404': errorResponse('No plant has that id.', ['not_found']),
  },
};

const patchPlant: ZodOpenApiOperationObject = {
  operationId: 'patchPlant',
  ...needs('plants:write'),
  summary: 'Correct a plant',
  description:
    'Changes a plant\'s name or tag with a JSON Merge Patch (RFC 7396), sent as `application/merge-patch+json` or ' +
    '`application/json`: `name` replaces the name, `tag` the tag, `"tag": null` removes it, and a field left out stays ' +
    'as it is. The result must hold to the rules of a new plant. `id` cannot change: one that differs from the path is ' +
    'a 400. With `If-Match`, the change happens only if nobody has changed the plant since (else 412).',
  requestParams: { ...plantPath, header: ifMatch },
  requestBody: {
    required: true,
    content: { 'application/merge-patch+json': { schema: PlantPatch }, 'application/json': { schema: PlantPatch } },
  },
  responses: {
    '200': { description: 'The plant as it is now.', headers: etagHeader, content: { 'application/json': { schema: Plant } } },
    ...commonErrors(['invalid_json', 'validation_failed', 'invalid_parameter', 'invalid_precondition']),
    '404': errorResponse('No plant has that id.', ['not_found']),
    '412': preconditionFailed,
    '413': errorResponse('The body is too large.', ['payload_too_large']),
    '415': errorResponse('The body is not a merge patch in JSON.', ['unsupported_media_type']),
  },
};

const deletePlant: ZodOpenApiOperationObject = {
  operationId: 'deletePlant',
  ...needs('plants:write'),
  summary: 'Delete a plant',
  description: 'With `If-Match`, the plant is deleted only if nobody has changed it since (else 412).',
  requestParams: { ...plantPath, header: ifMatch },
  responses: {
    '204': { description: 'Deleted.' },
    ...commonErrors(['invalid_parameter', 'invalid_precondition']),
    '404': errorResponse('No plant has that id.', ['not_found']),
    '412': preconditionFailed,
  },
};

const createPlants: ZodOpenApiOperationObject = {
  operationId: 'createPlants',
  ...needs('plants:write'),
  summary: 'Create many plants',
  description:
    `Creates up to ${BATCH_MAX_ITEMS} plants, each exactly as \`POST /plants\` would, and answers with one result per item, ` +
    'in order: 200 with the plant (`created` says whether this request stored it or it was already there, the same), ' +
    '409 when its id holds another plant, 400 when it breaks a rule. Items are applied in order, so an id that comes ' +
    'twice is settled by the first: the second is a 200 (`created: false`) with the same content, a 409 with other. ' +
    `Items are stored in transactions of a few hundred; a batch that fails midway may be sent again as it is. The body may be at most ${BATCH_BODY_LIMIT_BYTES} bytes.`,
  requestBody: { required: true, content: { 'application/json': { schema: NewPlantBatch } } },
  responses: {
    '200': { description: 'One result per item.', content: { 'application/json': { schema: BatchResult } } },
    ...commonErrors(['invalid_json', 'validation_failed']),
    '413': errorResponse('The body is too large, or holds too many items.', ['payload_too_large', 'too_many_items']),
    '415': errorResponse('The body is not application/json.', ['unsupported_media_type']),
  },
};

const exportPlants: ZodOpenApiOperationObject = {
  operationId: 'exportPlants',
  ...needs('plants:read'),
  summary: 'Export plants as CSV',
  description:
    'Every plant, or those matching `q` and `tag` as in `GET /plants`, as CSV (RFC 4180, UTF-8 without a byte-order ' +
    'mark): a header row `id,name,tag`, then one row per plant, oldest first, so that importing the file into an empty ' +
    'store (the staff `/import` page, or `POST /plants/batch`) gives the same catalogue in the same order. A cell that ' +
    "starts with `=`, `+`, `-`, `@`, a tab or a carriage return, or with one or more `'` before one of them, is written " +
    "quoted with a `'` in front, so that a spreadsheet shows it as text rather than run it as a formula (OWASP CSV " +
    "injection): a negative id comes as `'-5`. Take one `'` off such a cell to read it; the `/import` page does. " +
    'The answer is streamed, a page of plants at a time.',
  requestParams: { query: PlantFilterQuery },
  responses: {
    '200': {
      description: 'The plants, as CSV.',
      headers: headers('Content-Disposition'),
      content: { 'text/csv': { schema: { type: 'string', example: 'id,name,tag\r\n1,Fern,\r\n2,Monstera,aroid\r\n' } } },
    },
    ...commonErrors(['invalid_parameter']),
  },
};

const nextPlantId: ZodOpenApiOperationObject = {
  operationId: 'nextPlantId',
  ...needs('plants:read'),
  summary: 'Next free id',
  description:
    'An id no plant has, for a new plant: one more than the highest id in use (1 in an empty store); once a plant ' +
    'holds 9223372036854775807, the lowest free id from 1 up. Someone else may take it first: a create then answers 409, ' +
    'and asking again gives another.',
  responses: {
    '200': { description: 'A free id.', content: { 'application/json': { schema: z.object({ id: PlantId }) } } },
    ...commonErrors([]),
  },
};

const listAuditEvents: ZodOpenApiOperationObject = {
  operationId: 'listAuditEvents',
  summary: 'List audit records',
  description:
    'The audit trail, newest first: every change to plants, tokens and webhook endpoints, and every sign-in and failed ' +
    'sign-in, with who made it (an API token, a staff member, or the system), when, to what, and from which request. ' +
    'Paged like `GET /plants` (`Next-Cursor`, `Link: rel="next"`); `action`, `actor` and `target` narrow it down.',
  ...needs('audit:read'),
  requestParams: { query: ListAuditEventsQuery },
  responses: {
    '200': pageOf('A page of records, newest first.', AuditEvent),
    ...commonErrors(['invalid_parameter']),
  },
};

const getStats: ZodOpenApiOperationObject = {
  operationId: 'getStats',
  summary: 'Catalogue figures',
  description:
    'What the staff dashboard shows: how many plants, how many were added today and in the last 7 days, plants added per day ' +
    'over the last `days` days (UTC), and the 10 largest tags with the rest summed. Counts are of plants still in the store. ' +
    'With the `webhooks:manage` scope as well, `webhooks` says how deliveries went in the last 24 hours and what is waiting.',
  ...needs('plants:read'),
  requestParams: { query: StatsQuery },
  responses: {
    '200': { description: 'The figures.', content: { 'application/json': { schema: Stats } } },
    ...commonErrors(['invalid_parameter']),
  },
};

const health: ZodOpenApiOperationObject = {
  operationId: 'health',
  summary: 'Health check',
  description: 'Whether the service and its database answer. No token needed.',
  security: [],
  responses: {
    '200': {
      description: 'Healthy.',
      content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } },
    },
    ...transportErrors([]),
  },
};

const metrics: ZodOpenApiOperationObject = {
  operationId: 'metrics',
  ...needs('metrics:read'),
  summary: 'Metrics',
  description:
    "This instance's metrics in Prometheus's text exposition format (version 0.0.4), for Prometheus, Grafana Agent or " +
    'the OpenTelemetry Collector to scrape: the request-duration histogram `http_server_request_duration_seconds` ' +
    '(OpenTelemetry HTTP conventions; labelled by method, route template and status), the webhook backlog, delivery ' +
    'attempts, rate-limited requests, refused credentials, a busy database, backups, and the process and Node.js ' +
    'metrics. Each instance answers for itself. Empty when the server runs with `METRICS=off`.',
  responses: {
    '200': {
      description: 'The metrics, as text.',
      content: {
        'text/plain': {
          schema: {
            type: 'string',
            example:
              '# HELP plant_store_rate_limited_total API requests refused with 429 for the caller\'s rate limit.\n' +
              '# TYPE plant_store_rate_limited_total counter\nplant_store_rate_limited_total 0\n',
          },
        },
      },
    },
    ...commonErrors([]),
  },
};

function catalogueTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(
    ([kind, entry]) => `| ${entry.code} | ${entry.status} | ${kind} | ${entry.meaning} |`,
  );
  return ['| error | status | kind | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

type Operation = { security?: unknown[]; responses: Record<string, { headers?: Record<string, unknown> }> };

/**
 * Adds the headers every answer carries: x-request-id always, and the RateLimit-* ones on every
 * answer of an operation that takes a token (but its 401s, given before the token is known).
 */
function withStandardHeaders<Document extends ReturnType<typeof createDocument>>(document: Document): Document {
  for (const pathItem of Object.values(document.paths ?? {}) as Record<string, unknown>[]) {
    for (const operation of Object.values(pathItem) as Operation[]) {
      const authenticated = (operation.security ?? [{}]).length > 0;
      for (const [status, response] of Object.entries(operation.responses)) {
        const names: HeaderName[] = ['x-request-id'];
        if (authenticated && status !== '401') names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
        response.headers = { ...headers(...names), ...response.headers };
      }
    }
  }
  return document;
}

export function buildOpenApiDocument(serverUrl = '/') {
  return withStandardHeaders(createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Plant Store',
        version: '1.0.0',
        // package.json's UNLICENSED: no licence is granted. SPDX has no identifier for that, so a
        // LicenseRef- of our own names it (docs/decisions.md).
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        description:
          'A plant store interface. Clients add plants to the store over HTTP with JSON payloads.\n\n' +
          'Every operation but the health check takes `Authorization: Bearer <token>`. ' +
          'Query parameters an operation does not declare are ignored: the answer is the one without them. ' +
          'Every failure answers with an Error body `{"error": <code>, "message": "..."}`; the codes:\n\n' +
          catalogueTable(),
      },
      servers: [{ url: serverUrl }],
      security: [{ bearerAuth: [] }],
      components: {
        headers: HEADERS,
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API token (`pst_...`) made with `npm run token -- create` or on the tokens page, or the staff page\'s ' +
              'session token. Each carries scopes, and each operation names the one it needs in its security requirement: ' +
              SCOPES.map((scope) => `\`${scope}\` (${SCOPE_DESCRIPTIONS[scope]})`).join(', ') +
              '. A token never does more than its account\'s role allows.',
          },
        },
      },
      paths: {
        '/plants': {
          post: createPlant,
          get: listPlants,
        },
        '/plants/batch': { post: createPlants },
        '/plants/export': { get: exportPlants },
        '/plants/next-id': { get: nextPlantId },
        '/plants/{id}': {
          get: getPlant,
          patch: patchPlant,
          delete: deletePlant,
        },
        '/audit-events': { get: listAuditEvents },
        '/metrics': { get: metrics },
        '/stats': { get: getStats },
        '/api/health': { get: health },
      },
    },
    {
      // JSON Schema has no bigint; our ids are JSON integers read and written exactly.
      override: ({ jsonSchema, zodSchema }) => {
        if (zodSchema._zod.def.type === 'bigint') {
          for (const key of Object.keys(jsonSchema)) if (key !== 'description' && key !== 'example') delete (jsonSchema as Record<string, unknown>)[key];
          Object.assign(jsonSchema, { type: 'integer', format: 'int64' });
        }
      },
    },
  ));
}
