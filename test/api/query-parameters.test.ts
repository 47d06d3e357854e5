// Every query parameter /openapi.json documents does what it says: for each operation and each of
// its query parameters, one request without it and one with a value chosen to change the answer,
// and the answers differ the way the parameter promises. The table below says how to exercise each
// one; a parameter the document declares and the table does not cover fails the test, so a new
// parameter cannot go untested (nor can a documented one be silently ignored).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { SCOPES } from '../../lib/auth/scopes';
import { foldForSearch } from '../../lib/shared/fold';
import { type ApiResponse, request, sharedServer, uniqueId } from '../support/api';

type Parameter = { name: string; in: string };
type Operation = { parameters?: Parameter[] };
type Plant = { id: number; name: string; tag?: string };
type AuditRecord = { action: string; actor: { id?: string }; target: { type: string; id: string } };

type Seed = {
  marker: string;
  tag: string;
  plantIds: bigint[];
  writerId: string;
  /** The Next-Cursor of each list's first page of one. */
  cursors: Record<string, string>;
};

/** How to exercise one parameter: the value to send, and what must then be true of the two answers. */
type Exercise = {
  value: string;
  effect: (without: ApiResponse, withIt: ApiResponse) => void;
  /** The parameter changes a header, not the body (its effect says which). */
  inHeaders?: true;
};

const plantsOf = (answer: ApiResponse) => answer.body as Plant[];
const recordsOf = (answer: ApiResponse) => answer.body as AuditRecord[];
/** The data rows of a CSV export (the header row left out). */
const rowsOf = (answer: ApiResponse) => answer.text.split('\r\n').filter(Boolean).slice(1);

/** A list's first item with the parameter is the second without it: the page started further on. */
const startsOnTheSecond = (without: ApiResponse, withIt: ApiResponse) => {
  const [first, second] = without.body as unknown[];
  expect(second).toBeDefined();
  expect((withIt.body as unknown[])[0]).toEqual(second);
  expect((withIt.body as unknown[])[0]).not.toEqual(first);
};

const limitsToOne = (without: ApiResponse, withIt: ApiResponse) => {
  expect((without.body as unknown[]).length).toBeGreaterThan(1);
  expect(withIt.body).toHaveLength(1);
};

/** (operation, query parameter) → how to exercise it. */
const EXERCISES = (seed: Seed): Record<string, Record<string, Exercise>> => ({
  'GET /plants': {
    q: {
      value: seed.marker.toUpperCase(),
      effect: (without, withIt) => {
        expect(plantsOf(without).some((plant) => !plant.name.includes(seed.marker))).toBe(true);
        expect(plantsOf(withIt).length).toBeGreaterThan(0);
        for (const plant of plantsOf(withIt)) expect(plant.name).toContain(seed.marker);
      },
    },
    tag: {
      value: seed.tag,
      effect: (without, withIt) => {
        expect(plantsOf(without).some((plant) => plant.tag !== seed.tag)).toBe(true);
        expect(plantsOf(withIt).length).toBeGreaterThan(0);
        for (const plant of plantsOf(withIt)) expect(plant.tag).toBe(seed.tag);
      },
    },
    limit: { value: '1', effect: limitsToOne },
    cursor: { value: seed.cursors['/plants'], effect: startsOnTheSecond },
    sort: {
      // Descending: the seed's newest plants are not by chance in this order.
      value: '-name',
      effect: (without, withIt) => {
        // By folded name, in code-point order (UTF-8's byte order), descending.
        const names = plantsOf(withIt).map((plant) => foldForSearch(plant.name));
        expect(names.length).toBeGreaterThan(1);
        expect(names).toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(b), Buffer.from(a))));
        expect(plantsOf(withIt)).not.toEqual(plantsOf(without));
      },
    },
    count: {
      value: 'true',
      inHeaders: true,
      effect: (without, withIt) => {
        expect(without.headers.get('x-total-count')).toBeNull();
        expect(Number(withIt.headers.get('x-total-count'))).toBeGreaterThanOrEqual(plantsOf(withIt).length);
        expect(withIt.body).toEqual(without.body);
      },
    },
  },
  'GET /plants/export': {
    q: {
      value: seed.marker.toUpperCase(),
      effect: (without, withIt) => {
        expect(rowsOf(without).some((row) => !row.includes(seed.marker))).toBe(true);
        expect(rowsOf(withIt).length).toBeGreaterThan(0);
        for (const row of rowsOf(withIt)) expect(row).toContain(seed.marker);
      },
    },
    tag: {
      value: seed.tag,
      effect: (without, withIt) => {
        expect(rowsOf(without).some((row) => !row.endsWith(`,${seed.tag}`))).toBe(true);
        expect(rowsOf(withIt).length).toBeGreaterThan(0);
        for (const row of rowsOf(withIt)) expect(row).toMatch(new RegExp(`,${seed.tag}$`));
      },
    },
  },
  'GET /stats': {
    days: {
      value: '90',
      effect: (without, withIt) => {
        expect((without.body as { addedPerDay: unknown[] }).addedPerDay).toHaveLength(30);
        expect((withIt.body as { addedPerDay: unknown[] }).addedPerDay).toHaveLength(90);
      },
    },
  },
  'GET /audit-events': {
    limit: { value: '1', effect: limitsToOne },
    cursor: { value: seed.cursors['/audit-events'], effect: startsOnTheSecond },
    action: {
      value: 'plant.created',
      effect: (without, withIt) => {
        expect(recordsOf(without).some((record) => record.action !== 'plant.created')).toBe(true);
        expect(recordsOf(withIt).length).toBeGreaterThan(0);
        for (const record of recordsOf(withIt)) expect(record.action).toBe('plant.created');
      },
    },
    actor: {
      value: seed.writerId,
      effect: (without, withIt) => {
        expect(recordsOf(without).some((record) => record.actor.id !== seed.writerId)).toBe(true);
        expect(recordsOf(withIt).length).toBeGreaterThan(0);
        for (const record of recordsOf(withIt)) expect(record.actor.id).toBe(seed.writerId);
      },
    },
    target: {
      value: `plant:${seed.plantIds[0]}`,
      effect: (without, withIt) => {
        expect(recordsOf(without).some((record) => record.target.id !== String(seed.plantIds[0]))).toBe(true);
        expect(recordsOf(withIt).length).toBeGreaterThan(0);
        for (const record of recordsOf(withIt)) expect(record.target).toEqual({ type: 'plant', id: String(seed.plantIds[0]) });
      },
    },
  },
});

let token: string;
let seed: Seed;
let operations: { name: string; method: string; path: string; query: string[] }[];

beforeAll(async () => {
  token = (await createApiToken({ name: 'query parameters', scopes: [...SCOPES] }, OPERATOR_COMMAND)).token;
  const writer = await createApiToken({ name: 'query parameters writer', scopes: ['plants:write'] }, OPERATOR_COMMAND);
  const marker = `qp${randomBytes(4).toString('hex')}`;
  const tag = `${marker}-tag`;
  // Names with and without the marker, tags with and without `tag`; made by the writer, then one
  // corrected by another token, so the newest records differ in action, actor and target.
  const plants = [
    { id: uniqueId(), name: `${marker} Fern`, tag },
    { id: uniqueId(), name: `${marker} Aloe` },
    { id: uniqueId(), name: `Plain ${randomBytes(4).toString('hex')} Ivy`, tag },
    { id: uniqueId(), name: `Plain ${randomBytes(4).toString('hex')} Palm` },
  ];
  for (const plant of plants) {
    const body = `{"id": ${plant.id}, "name": ${JSON.stringify(plant.name)}${plant.tag ? `, "tag": ${JSON.stringify(plant.tag)}` : ''}}`;
    expect((await request(sharedServer(), '/plants', { method: 'POST', token: writer.token, body })).status).toBe(200);
  }
  const patched = await request(sharedServer(), `/plants/${plants[3].id}`, { method: 'PATCH', token, body: { name: `${plants[3].name} Renamed` } });
  expect(patched.status, patched.text).toBe(200);

  const cursors: Record<string, string> = {};
  for (const path of ['/plants', '/audit-events']) {
    const first = await request(sharedServer(), `${path}?limit=1`, { token });
    cursors[path] = first.headers.get('next-cursor')!;
    expect(cursors[path], path).toBeTruthy();
  }
  seed = { marker, tag, plantIds: plants.map((plant) => plant.id), writerId: writer.summary.id, cursors };

  const document = (await request(sharedServer(), '/openapi.json')).body as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      name: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path,
      query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
    })),
  );
});

/** The operation's path with a real plant's id, and the query. */
const urlOf = (path: string, query: Record<string, string> = {}) => {
  const search = new URLSearchParams(query).toString();
  return `${path.replace('{id}', String(seed.plantIds[0]))}${search ? `?${search}` : ''}`;
};

describe('the documented query parameters', () => {
  it('are each covered by this test, and the test covers nothing the document does not declare', () => {
    const table = EXERCISES(seed);
    const documented = operations.flatMap(({ name, query }) => query.map((parameter) => `${name} ?${parameter}`));
    const covered = Object.entries(table).flatMap(([name, parameters]) => Object.keys(parameters).map((parameter) => `${name} ?${parameter}`));
    expect(documented.filter((pair) => !covered.includes(pair)), 'documented, but not exercised here').toEqual([]);
    expect(covered.filter((pair) => !documented.includes(pair)), 'exercised here, but not documented').toEqual([]);
    expect(documented.length).toBeGreaterThan(0);
  });

  it('each change the answer the way the document says', async () => {
    const table = EXERCISES(seed);
    for (const { name, method, path, query } of operations) {
      for (const parameter of query) {
        const exercise = table[name]?.[parameter];
        if (!exercise) continue; // reported by the test above
        const where = `${name} ?${parameter}=${exercise.value}`;
        const without = await request(sharedServer(), urlOf(path), { method, token });
        const withIt = await request(sharedServer(), urlOf(path, { [parameter]: exercise.value }), { method, token });
        expect(without.status, `${where} (left out): ${without.text}`).toBe(200);
        expect(withIt.status, `${where}: ${withIt.text}`).toBe(200);
        if (!exercise.inHeaders) expect(withIt.text, `${where} answers as if it were left out`).not.toBe(without.text);
        try {
          exercise.effect(without, withIt);
        } catch (error) {
          throw new Error(`${where}: ${(error as Error).message}`);
        }
      }
    }
  });
});

// The metrics change with every request (CPU time, the request counts, new series): what must be the
// same is the families they answer with.
const comparable = (name: string, text: string) => (name === 'GET /metrics' ? text.split('\n').filter((line) => line.startsWith('# TYPE')).join('\n') : text);

describe('a query parameter an operation does not document', () => {
  it('is ignored, as on GET /plants: the answer is the one without it', async () => {
    const reads = operations.filter(({ method }) => method === 'GET');
    expect(reads.map(({ name }) => name)).toEqual(expect.arrayContaining(['GET /plants', 'GET /audit-events']));
    for (const { name, path } of reads) {
      const without = await request(sharedServer(), urlOf(path), { token });
      const withIt = await request(sharedServer(), urlOf(path, { undocumented: 'no plant is called this' }), { token });
      expect(withIt.status, name).toBe(without.status);
      expect(comparable(name, withIt.text), name).toBe(comparable(name, without.text));
    }
  });

  it('the plant filters on GET /audit-events are no filters of the trail: neither documented nor read', async () => {
    const audit = operations.find(({ name }) => name === 'GET /audit-events')!;
    expect(audit.query.sort()).toEqual(['action', 'actor', 'cursor', 'limit', 'target']);
    const all = await request(sharedServer(), '/audit-events', { token });
    for (const query of ['q=no plant is called this', `tag=${seed.tag}`]) expect((await request(sharedServer(), `/audit-events?${query}`, { token })).text, query).toBe(all.text);
  });
});
