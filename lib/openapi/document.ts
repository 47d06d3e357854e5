// The service's published OpenAPI document, generated from the zod schemas that validate requests.
// It is a superset of the contract in spec/plant-store.openapi.yaml (a test keeps it so).
import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { BODY_LIMIT_BYTES } from '../http/body';
import { ERROR_CATALOGUE, type ErrorKind } from '../http/errors';
import { ErrorBody } from '../schemas/error';
import { ListPlantsQuery } from '../schemas/list';
import { NewPlant, Plant, PlantId } from '../schemas/plant';

const errorResponse = (
  description: string,
  kinds: ErrorKind[],
  headers?: ZodOpenApiResponseObject['headers'],
): ZodOpenApiResponseObject => ({
  description: `${description} Codes: ${kinds.map((kind) => `${ERROR_CATALOGUE[kind].code} (${kind})`).join(', ')}.`,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: ErrorBody } },
});

const requestIdHeader: ZodOpenApiResponseObject['headers'] = {
  'x-request-id': { description: 'Identifies the request in the server log.', schema: { type: 'string' } },
};

/** Failures every authenticated operation can answer with. */
const commonErrors = (badRequest: ErrorKind[]): ZodOpenApiResponsesObject => ({
  '400': errorResponse('unexpected error: the request is malformed or breaks a rule.', badRequest),
  '401': errorResponse(
    'The bearer token is missing, malformed, unknown, expired or revoked.',
    ['missing_token', 'invalid_token', 'expired_token', 'revoked_token'],
    {
      'WWW-Authenticate': {
        description: 'RFC 6750 challenge: `Bearer realm="plants"`, with `error="invalid_token"` when a token was sent.',
        schema: { type: 'string' },
      },
    },
  ),
  '500': errorResponse('A fault on the server; quote x-request-id.', ['internal'], requestIdHeader),
});

const plantPath = { path: z.object({ id: PlantId }) };

const createPlant: ZodOpenApiOperationObject = {
  operationId: 'createPlant',
  summary: 'Create plant',
  description:
    'Creates a new plant in the store. Retrying with the same id, name and tag answers 200 with the stored plant ' +
    '(and `Idempotent-Replayed: true`); the same id with another name or tag is a 409. ' +
    `Ids are int64 and are kept digit for digit; the body may be at most ${BODY_LIMIT_BYTES} bytes.`,
  requestBody: { required: true, content: { 'application/json': { schema: NewPlant } } },
  responses: {
    '200': {
      description: 'Plant response',
      headers: {
        'Idempotent-Replayed': {
          description: '`true` when the plant already existed with the same content and nothing was written.',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      content: { 'application/json': { schema: Plant } },
    },
    ...commonErrors(['invalid_json', 'validation_failed']),
    '409': errorResponse('A plant with that id exists with a different name or tag.', ['conflict']),
    '413': errorResponse('The body is too large.', ['payload_too_large']),
    '415': errorResponse('The body is not application/json.', ['unsupported_media_type']),
  },
};

const listPlants: ZodOpenApiOperationObject = {
  operationId: 'listPlants',
  summary: 'List plants',
  description:
    'Plants, newest first. When more remain, the response carries `Next-Cursor` and `Link: <...>; rel="next"`: ' +
    'pass the cursor back as `?cursor=` (with the same `limit`) for the next page. No `Next-Cursor` means the last page.',
  requestParams: { query: ListPlantsQuery },
  responses: {
    '200': {
      description: 'A page of plants, newest first.',
      headers: {
        'Next-Cursor': { description: 'The cursor of the next page, when there is one.', schema: { type: 'string' } },
        Link: { description: 'RFC 8288 link to the next page (`rel="next"`).', schema: { type: 'string' } },
      },
      content: { 'application/json': { schema: z.array(Plant) } },
    },
    ...commonErrors(['invalid_parameter']),
  },
};

const getPlant: ZodOpenApiOperationObject = {
  operationId: 'getPlant',
  summary: 'Get a plant',
  requestParams: plantPath,
  responses: {
    '200': { description: 'The plant.', content: { 'application/json': { schema: Plant } } },
    ...commonErrors(['invalid_parameter']),
    '404': errorResponse('No plant has that id.', ['not_found']),
  },
};

const deletePlant: ZodOpenApiOperationObject = {
  operationId: 'deletePlant',
  summary: 'Delete a plant',
  requestParams: plantPath,
  responses: {
    '204': { description: 'Deleted.' },
    ...commonErrors(['invalid_parameter']),
    '404': errorResponse('No plant has that id.', ['not_found']),
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
    '503': errorResponse('The database does not answer.', ['unavailable']),
  },
};

function catalogueTable(): string {
  const rows = Object.entries(ERROR_CATALOGUE).map(
    ([kind, entry]) => `| ${entry.code} | ${entry.status} | ${kind} | ${entry.meaning} |`,
  );
  return ['| error | status | kind | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function buildOpenApiDocument(serverUrl = 'http://localhost:3000') {
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Plant Store',
        version: '1.0.0',
        description:
          'A plant store interface. Clients add plants to the store over HTTP with JSON payloads.\n\n' +
          'Every operation but the health check takes `Authorization: Bearer <token>`. ' +
          'Every failure answers with an Error body `{"error": <code>, "message": "..."}`; the codes:\n\n' +
          catalogueTable(),
      },
      servers: [{ url: serverUrl }],
      security: [{ bearerAuth: [] }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API token (`pst_...`) made with `npm run token -- create`, or the staff page\'s session token.',
          },
        },
      },
      paths: {
        '/plants': {
          post: createPlant,
          get: listPlants,
        },
        '/plants/{id}': {
          get: getPlant,
          delete: deletePlant,
        },
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
  );
}
