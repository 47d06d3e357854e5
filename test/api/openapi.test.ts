import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { request, sharedServer } from '../support/api';
import { supersetProblems } from '../support/openapi-superset';

const contractFile = path.resolve('spec/plant-store.openapi.yaml');
const contract = parse(readFileSync(contractFile, 'utf8'));

async function publishedDocument() {
  const response = await request(sharedServer(), '/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return response.body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('GET /openapi.json', () => {
  it('is a superset of the contract', async () => {
    expect(supersetProblems(contract, await publishedDocument())).toEqual([]);
  });

  it('documents the other operations, statuses and limits', async () => {
    const document = await publishedDocument();
    expect(Object.keys(document.paths['/plants']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/plants/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(document.paths['/plants/{id}'].patch.requestBody.content).sort()).toEqual(['application/json', 'application/merge-patch+json']);
    expect(document.paths['/plants/{id}'].patch.responses['412'].description).toContain('41201 (precondition_failed)');
    expect(document.paths['/plants/{id}'].get.responses['200'].headers.ETag).toBeDefined();
    expect(document.paths['/plants'].get.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['count', 'cursor', 'limit', 'q', 'sort', 'tag']);
    expect(document.paths['/plants/batch'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/NewPlantBatch' });
    expect(document.components.schemas.NewPlantBatch.maxItems).toBe(1000);
    expect(Object.keys(document.paths['/plants/export'].get.responses['200'].content)).toEqual(['text/csv']);
    expect(document.paths['/plants/next-id'].get.operationId).toBe('nextPlantId');
    expect(Object.keys(document.paths['/plants'].post.responses).sort()).toEqual(
      ['200', '400', '401', '403', '405', '408', '409', '413', '415', '417', '429', '431', '500', '503'],
    );
    expect(Object.keys(document.paths['/plants/{id}'].get.responses).sort()).toEqual(
      ['200', '304', '400', '401', '403', '404', '405', '408', '417', '429', '431', '500', '503'],
    );
    expect(Object.keys(document.paths['/plants/{id}'].delete.responses)).toContain('204');
    const newPlant = document.components.schemas.NewPlant;
    expect(newPlant.properties.name.maxLength).toBe(200);
    expect(newPlant.properties.tag.maxLength).toBe(100);
    expect(newPlant.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(document.paths['/api/health'].get.security).toEqual([]);
    expect(document.info.description).toContain('| 40901 | 409 | conflict |');
    // Relative: no PUBLIC_URL is configured, and no header names the origin (test/server/forwarded-headers.test.ts).
    expect(document.servers).toEqual([{ url: '/' }]);
  });
});

describe('every operation in /openapi.json', () => {
  type Response = { description: string; headers?: Record<string, { $ref: string }> };
  type Operation = { security?: unknown[]; responses: Record<string, Response> };
  const operations = async () =>
    Object.entries((await publishedDocument()).paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, operation })),
    );
  const headerNames = (response: Response) => Object.keys(response.headers ?? {});

  it('declares what any request may be answered: 400, 405, 408, 417, 431, 500 and 503, and with a token 401, 403 and 429', async () => {
    for (const { name, operation } of await operations()) {
      const statuses = Object.keys(operation.responses);
      const everywhere = ['400', '405', '408', '417', '431', '500', '503'];
      const authenticated = (operation.security ?? [{}]).length > 0;
      expect(statuses, name).toEqual(expect.arrayContaining(authenticated ? [...everywhere, '401', '403', '429'] : everywhere));
      expect(operation.responses['405'].description, name).toContain('40501 (method_not_allowed)');
      expect(operation.responses['503'].description, name).toContain('50301 (unavailable)');
      if (authenticated) expect(operation.responses['429'].description, name).toMatch(/42901 \(rate_limited\), 42902/);
    }
  });

  it('declares the headers clients use, each described once in components.headers', async () => {
    const document = await publishedDocument();
    expect(Object.keys(document.components.headers).sort()).toEqual(
      ['Allow', 'Content-Disposition', 'ETag', 'Idempotent-Replayed', 'Link', 'Next-Cursor', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After', 'WWW-Authenticate', 'X-Total-Count', 'x-request-id'].sort(),
    );
    for (const { name, operation } of await operations()) {
      const authenticated = (operation.security ?? [{}]).length > 0;
      for (const [status, response] of Object.entries(operation.responses)) {
        const names = headerNames(response);
        expect(names, `${name} ${status}`).toContain('x-request-id');
        if (authenticated && status !== '401') expect(names, `${name} ${status}`).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
        for (const header of Object.values(response.headers ?? {})) expect(document.components.headers[header.$ref.split('/').at(-1)!]).toBeDefined();
      }
      expect(headerNames(operation.responses['405']), name).toContain('Allow');
      expect(headerNames(operation.responses['503']), name).toContain('Retry-After');
      if (authenticated) {
        expect(headerNames(operation.responses['401']), name).toContain('WWW-Authenticate');
        expect(headerNames(operation.responses['403']), name).toContain('WWW-Authenticate');
        expect(headerNames(operation.responses['429']), name).toContain('Retry-After');
      }
    }
    const paths = document.paths;
    for (const list of [paths['/plants'].get, paths['/audit-events'].get]) expect(headerNames(list.responses['200'])).toEqual(expect.arrayContaining(['Next-Cursor', 'Link']));
    expect(headerNames(paths['/plants'].post.responses['200'])).toEqual(expect.arrayContaining(['ETag', 'Idempotent-Replayed']));
    for (const operation of [paths['/plants/{id}'].get, paths['/plants/{id}'].patch]) expect(headerNames(operation.responses['200'])).toContain('ETag');
  });
});

describe('the superset check', () => {
  it('notices each way a document can fall short of the contract', async () => {
    const breakages: [string, (doc: any) => void][] = [ // eslint-disable-line @typescript-eslint/no-explicit-any
      ['a missing operation', (doc) => delete doc.paths['/plants'].post],
      ['an optional request body', (doc) => (doc.paths['/plants'].post.requestBody.required = false)],
      ['a field no longer required', (doc) => (doc.components.schemas.NewPlant.required = ['name'])],
      ['a changed format', (doc) => (doc.components.schemas.NewPlant.properties.id.format = 'int32')],
      ['a changed type', (doc) => (doc.components.schemas.Plant.properties.name.type = 'integer')],
      ['a missing response', (doc) => delete doc.paths['/plants'].post.responses['400']],
      ['a missing Error field', (doc) => delete doc.components.schemas.Error.properties.message],
      ['a missing security scheme', (doc) => delete doc.components.securitySchemes.bearerAuth],
      ['no security requirement', (doc) => (doc.paths['/plants'].post.security = [])],
      ['another version', (doc) => (doc.info.version = '2.0.0')],
    ];
    for (const [label, breakDocument] of breakages) {
      const document = await publishedDocument();
      breakDocument(document);
      expect(supersetProblems(contract, document), label).not.toEqual([]);
    }
  });

  it('compares against the same contract as ../shared/spec, when that is present', () => {
    const shared = path.resolve('../shared/spec/plant-store.openapi.yaml');
    if (!existsSync(shared)) return;
    expect(readFileSync(contractFile, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});
