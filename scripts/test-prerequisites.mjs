// What `npm test` needs from the machine, checked before anything starts (scripts/test.mjs), so a
// newcomer learns in a second, not after minutes of build and suites, what to install or set: the
// packages installed and the Prisma clients generated, PostgreSQL answering at TEST_DATABASE_URL
// (with the right to create databases), Chromium's headless shell, and the ports whose numbers
// the run does not choose for itself free. Each problem is one line naming the Debian package, the
// command or the setting that fixes it. The checks run side by side, each with a deadline.
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const DEFAULT_TEST_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/test';
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium-headless-shell';
export const DEFAULT_E2E_PORT = 3917;
// The OpenTelemetry SDK's default port, which test/api/traces.test.ts claims to show that a server
// without an endpoint sends nothing there.
export const OTLP_DEFAULT_PORT = 4318;

// Each engine's schema and where its generated client keeps a copy of the schema it was made from.
const PRISMA_CLIENTS = [
  { schema: 'prisma/schema.prisma', client: 'lib/db/generated/sqlite/internal/class.ts' },
  { schema: 'prisma/postgresql/schema.prisma', client: 'lib/db/generated/postgresql/internal/class.ts' },
];

/** Where a PostgreSQL URL points, as `host:port` (URL.host would carry the port already). */
export function postgresqlAddress(url) {
  const { hostname, port } = new URL(url);
  return `${hostname || 'localhost'}:${port || 5432}`;
}

/**
 * Every problem found, one line each, empty when the run may start. `env` is the environment the
 * run has; `root` the checkout.
 * @param {{ env?: Record<string, string | undefined>, root?: string, timeoutMs?: number, otlpPort?: number }} [options]
 * @returns {Promise<string[]>}
 */
export async function checkPrerequisites({ env = process.env, root = process.cwd(), timeoutMs = 2000, otlpPort = OTLP_DEFAULT_PORT } = {}) {
  const results = await Promise.all([
    checkPackages(root),
    checkPostgresql(env.TEST_DATABASE_URL?.trim() || DEFAULT_TEST_DATABASE_URL, timeoutMs),
    checkChromium(env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH, Boolean(env.CHROMIUM_PATH)),
    ...journeyPorts(Number(env.E2E_PORT ?? DEFAULT_E2E_PORT)),
    checkPort(otlpPort, undefined, "the traces test listens there as OpenTelemetry's default collector: stop what holds it (a collector?)"),
  ]);
  return results.flat();
}

function checkPackages(root) {
  if (!existsSync(path.join(root, 'node_modules/.bin/vitest'))) return ['The npm packages are not installed: run npm install'];
  const problems = [];
  for (const { schema, client } of PRISMA_CLIENTS) {
    const file = path.join(root, client);
    if (!existsSync(file)) {
      problems.push(`The Prisma client for ${schema} is not generated: run npm run db:generate`);
      continue;
    }
    const made = /"inlineSchema": ("(?:[^"\\]|\\.)*")/.exec(readFileSync(file, 'utf8'));
    if (made && statements(JSON.parse(made[1])) !== statements(readFileSync(path.join(root, schema), 'utf8'))) {
      problems.push(`The Prisma client for ${schema} was generated from an older schema: run npm run db:generate`);
    }
  }
  return problems;
}

/** A schema without its comments and blank lines: what its client is generated from. */
function statements(schema) {
  return schema
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter(Boolean)
    .join('\n');
}

async function checkPostgresql(url, timeoutMs) {
  let address;
  try {
    address = postgresqlAddress(url);
  } catch {
    return [`TEST_DATABASE_URL is not a URL (${url}): set it to postgresql://USER[:PASSWORD]@HOST:PORT/DATABASE`];
  }
  let pg;
  try {
    pg = (await import('pg')).default;
  } catch {
    return []; // reported as packages not installed
  }
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    // A server answered, but refused the user, its password or the database named.
    if (error.code === '3D000' || error.code === '28P01' || error.code === '28000') {
      return [`PostgreSQL at ${address} refused TEST_DATABASE_URL (${error.message}): set TEST_DATABASE_URL to a user and an existing database there`];
    }
    return [
      `PostgreSQL does not answer at ${address} (${error.code ?? error.message}): install and start it (Debian package postgresql), or set TEST_DATABASE_URL to one that answers`,
    ];
  }
  try {
    const { rows } = await client.query('SELECT rolcreatedb OR rolsuper AS may FROM pg_roles WHERE rolname = current_user');
    if (!rows[0]?.may) return [`PostgreSQL at ${address}: TEST_DATABASE_URL's user may not create databases, which each run does: ALTER ROLE ... CREATEDB, or set TEST_DATABASE_URL to a user that may`];
    return [];
  } finally {
    await client.end().catch(() => {});
  }
}

function checkChromium(file, chosen) {
  try {
    accessSync(file, constants.X_OK);
    return [];
  } catch {
    return chosen
      ? [`No Chromium headless shell at CHROMIUM_PATH=${file}: set CHROMIUM_PATH to one, or unset it and install Debian's package chromium-headless-shell`]
      : [`No Chromium headless shell at ${file}: install Debian's packages chromium and chromium-headless-shell, or set CHROMIUM_PATH to one`];
  }
}

/** The journeys' server listens on E2E_PORT, and the mail journeys' server on the port after it (e2e/support/mail-server.ts). */
function journeyPorts(e2ePort) {
  if (!Number.isInteger(e2ePort) || e2ePort < 1 || e2ePort > 65534) return [Promise.resolve([`E2E_PORT is not a port number below 65535 (${e2ePort}): set it to a free port`])];
  const why = "the browser journeys' servers listen on E2E_PORT and the port after it: stop what holds it, or set E2E_PORT to another port";
  return [0, 1].map((offset) => checkPort(e2ePort + offset, offset === 0 ? 'E2E_PORT' : `E2E_PORT + ${offset}`, why));
}

async function checkPort(port, setting, why) {
  // Every address at once: a port held on 127.0.0.1 or on ::1 is held here too. A host without
  // IPv6 listens on IPv4's alone.
  for (const host of ['::', '0.0.0.0']) {
    const outcome = await listensOn(port, host);
    if (outcome === 'free') return [];
    if (outcome === 'EADDRINUSE') return [`Port ${port}${setting ? ` (${setting})` : ''} is in use: ${why}`];
  }
  return [];
}

/** 'free' once a listener took the port (and let it go), or the code that stopped it. */
function listensOn(port, host) {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error) => resolve(error.code));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve('free')));
  });
}
