// What npm run bench can measure: each target, the server it runs against, and the request it sends.

/** A target driven with autocannon against a server this run starts. */
export type LoadTarget = {
  key: string;
  label: string;
  server: 'app' | 'next' | 'metrics' | 'floor' | 'webhook' | 'typical';
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  /** Each 2xx answer stores one plant (tag "bench"): checked in the database after the run. */
  stores?: boolean;
  /** What a GET's answer must start with (default: a list of plants). */
  answers?: RegExp;
  contentType?: string;
  /** The body of each request, when it is not a fresh plant (every POST's default). */
  body?: () => string;
  /** Its fresh plants' ids stay below 2^53, where a double holds every integer (bench/run/load.ts). */
  doubleIds?: boolean;
};

/** A target another bench script measures with servers and databases of its own (or none). */
export type ScriptTarget = { key: string; label: string; server: 'json' | 'catalogue' | 'instances' };

export type Target = LoadTarget | ScriptTarget;

export const isLoadTarget = (target: Target): target is LoadTarget => 'method' in target;

let renames = 0;

export const TARGETS: Target[] = [
  { key: 'ceiling', label: 'ceiling POST /api/bench/empty', server: 'app', method: 'POST', path: '/api/bench/empty' },
  { key: 'post', label: 'project POST /plants', server: 'app', method: 'POST', path: '/plants', stores: true },
  // A typical first implementation of the same route with Next.js and Prisma (bench/typical): what
  // the project's POST /plants is held against. It reads bodies with JSON.parse, so its ids stay below 2^53.
  { key: 'typical', label: 'typical Next.js + Prisma POST /plants', server: 'typical', method: 'POST', path: '/plants', stores: true, doubleIds: true },
  { key: 'get', label: 'project GET /plants?limit=20', server: 'app', method: 'GET', path: '/plants?limit=20' },
  { key: 'get-one', label: 'project GET /plants/{id}', server: 'app', method: 'GET', path: '/plants/1', answers: /^\{"id":1,/ },
  {
    key: 'patch',
    label: 'project PATCH /plants/{id}',
    server: 'app',
    method: 'PATCH',
    path: '/plants/2',
    contentType: 'application/merge-patch+json',
    body: () => `{"name":"Seed plant 2, renamed ${renames++}"}`,
  },
  { key: 'audit', label: 'project GET /audit-events?limit=20', server: 'app', method: 'GET', path: '/audit-events?limit=20', answers: /^\[\{"id":/ },
  // The same build with API_DIRECT_ROUTES=off: every request through Next's router.
  { key: 'next-ceiling', label: "Next's router: ceiling POST /api/bench/empty", server: 'next', method: 'POST', path: '/api/bench/empty' },
  { key: 'next-post', label: "Next's router: project POST /plants", server: 'next', method: 'POST', path: '/plants', stores: true },
  // Two servers of the same build, METRICS on and off, measured in turns (bench/run/metrics-comparison.ts).
  { key: 'metrics', label: 'project POST /plants, metrics on / off', server: 'metrics', method: 'POST', path: '/plants' },
  { key: 'floor-post', label: 'floor POST /plants', server: 'floor', method: 'POST', path: '/plants', stores: true },
  { key: 'floor-get', label: 'floor GET /plants?limit=20', server: 'floor', method: 'GET', path: '/plants?limit=20' },
  // The same build with one webhook endpoint: each create is delivered to bench/receiver.mjs.
  { key: 'webhook', label: 'project POST /plants, 1 webhook endpoint', server: 'webhook', method: 'POST', path: '/plants', stores: true },
  // In-process, no server (bench/json-parse.ts).
  { key: 'json', label: 'reading JSON bodies', server: 'json' },
  // Its own servers and databases, one per engine (bench/catalogue.ts); --duration is its search load's.
  { key: 'catalogue', label: 'catalogue on 100,000 plants', server: 'catalogue' },
  // Its own servers and PostgreSQL database (bench/instances.ts); --duration is its load's.
  { key: 'instances', label: 'POST /plants on PostgreSQL, one instance and two', server: 'instances' },
];

export const TARGET_ALIASES: Record<string, string[]> = {
  floor: ['floor-post', 'floor-get'],
  next: ['next-ceiling', 'next-post'],
  all: TARGETS.map((target) => target.key),
};
