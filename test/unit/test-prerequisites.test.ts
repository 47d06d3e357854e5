// npm test's first second (scripts/test-prerequisites.mjs): each missing thing is one line naming
// what fixes it, checked against the real things: a file that is or is not there, a port something
// holds, a port nothing answers on, this machine's PostgreSQL.
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_POSTGRESQL_SERVER_URL } from '../../lib/db/engine';
import {
  DEFAULT_TEST_DATABASE_URL,
  checkPrerequisites,
  postgresqlAddress,
} from '../../scripts/test-prerequisites.mjs';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A port something of the test's own listens on, until the test ends. */
async function heldPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on: taken from the system, then let go. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An executable file standing in for the headless shell. */
function fakeExecutable(mode: number): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'plant-store-prerequisites-'));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const file = path.join(directory, 'chromium-headless-shell');
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, mode);
  return file;
}

/** What this machine has: the checkout's packages and clients, PostgreSQL, a shell, free ports. */
async function everythingThere() {
  return {
    env: { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL, CHROMIUM_PATH: fakeExecutable(0o755), E2E_PORT: String(await unusedPort()) },
    otlpPort: await unusedPort(),
  };
}

describe('npm test checks the machine first', () => {
  test('nothing is reported when everything is there', async () => {
    expect(await checkPrerequisites(await everythingThere())).toEqual([]);
  });

  test('a missing headless shell names the Debian packages, or the setting chosen', async () => {
    const there = await everythingThere();
    const missing = path.join(os.tmpdir(), 'no-such-dir', 'chromium-headless-shell');
    expect(await checkPrerequisites({ ...there, env: { ...there.env, CHROMIUM_PATH: missing } })).toEqual([
      `No Chromium headless shell at CHROMIUM_PATH=${missing}: set CHROMIUM_PATH to one, or unset it and install Debian's package chromium-headless-shell`,
    ]);
    // A file that cannot be run is no shell either.
    const notExecutable = fakeExecutable(0o644);
    expect(await checkPrerequisites({ ...there, env: { ...there.env, CHROMIUM_PATH: notExecutable } })).toHaveLength(1);
  });

  test('PostgreSQL that does not answer is named by its address, once, with the package and the setting', async () => {
    const there = await everythingThere();
    const port = await unusedPort();
    const problems = await checkPrerequisites({ ...there, env: { ...there.env, TEST_DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/test` } });
    expect(problems).toEqual([
      `PostgreSQL does not answer at 127.0.0.1:${port} (ECONNREFUSED): install and start it (Debian package postgresql), or set TEST_DATABASE_URL to one that answers`,
    ]);
  });

  test('a database that does not exist is told apart from a server that does not answer', async () => {
    const there = await everythingThere();
    const url = new URL(process.env.TEST_DATABASE_URL || DEFAULT_TEST_DATABASE_URL);
    url.pathname = '/plant_store_no_such_database';
    const [problem, ...rest] = await checkPrerequisites({ ...there, env: { ...there.env, TEST_DATABASE_URL: url.toString() } });
    expect(rest).toEqual([]);
    expect(problem).toBe(
      `PostgreSQL at ${postgresqlAddress(url.toString())} refused TEST_DATABASE_URL (database "plant_store_no_such_database" does not exist): set TEST_DATABASE_URL to a user and an existing database there`,
    );
  });

  test('ports another process holds are named, with the setting that moves the one that can move', async () => {
    const there = await everythingThere();
    const [e2ePort, otlpPort] = [await heldPort(), await heldPort()];
    expect(await checkPrerequisites({ ...there, env: { ...there.env, E2E_PORT: String(e2ePort) }, otlpPort })).toEqual([
      `Port ${e2ePort} (E2E_PORT) is in use: the browser journeys' servers listen on E2E_PORT and the port after it: stop what holds it, or set E2E_PORT to another port`,
      `Port ${otlpPort} is in use: the traces test listens there as OpenTelemetry's default collector: stop what holds it (a collector?)`,
    ]);
  });

  test("the mail journeys' port, the one after E2E_PORT, is checked too", async () => {
    const there = await everythingThere();
    const mailPort = await heldPort();
    expect(await checkPrerequisites({ ...there, env: { ...there.env, E2E_PORT: String(mailPort - 1) } })).toEqual([
      `Port ${mailPort} (E2E_PORT + 1) is in use: the browser journeys' servers listen on E2E_PORT and the port after it: stop what holds it, or set E2E_PORT to another port`,
    ]);
  });

  test('Prisma clients not generated, or generated from an older schema, name the command', async () => {
    const there = await everythingThere();
    const root = mkdtempSync(path.join(os.tmpdir(), 'plant-store-checkout-'));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(path.join(root, 'node_modules/.bin'), { recursive: true });
    writeFileSync(path.join(root, 'node_modules/.bin/vitest'), '');
    cpSync('prisma', path.join(root, 'prisma'), { recursive: true });
    expect(await checkPrerequisites({ ...there, root })).toEqual([
      'The Prisma client for prisma/schema.prisma is not generated: run npm run db:generate',
      'The Prisma client for prisma/postgresql/schema.prisma is not generated: run npm run db:generate',
    ]);

    cpSync('lib/db/generated', path.join(root, 'lib/db/generated'), { recursive: true });
    expect(await checkPrerequisites({ ...there, root })).toEqual([]);
    // A comment changes nothing generated; a field does.
    const schema = readFileSync('prisma/schema.prisma', 'utf8');
    writeFileSync(path.join(root, 'prisma/schema.prisma'), `// a note\n${schema}`);
    expect(await checkPrerequisites({ ...there, root })).toEqual([]);
    writeFileSync(path.join(root, 'prisma/schema.prisma'), schema.replace(/^model (\w+) \{/m, 'model $1 {\n  addedField String?'));
    expect(await checkPrerequisites({ ...there, root })).toEqual([
      'The Prisma client for prisma/schema.prisma was generated from an older schema: run npm run db:generate',
    ]);

    rmSync(path.join(root, 'node_modules'), { recursive: true });
    expect(await checkPrerequisites({ ...there, root })).toEqual(['The npm packages are not installed: run npm install']);
  });

  test("the address is the URL's host and port, the port written once", () => {
    expect(postgresqlAddress('postgresql://postgres@127.0.0.1:5432/nosuch')).toBe('127.0.0.1:5432');
    expect(postgresqlAddress('postgresql://postgres@db.example.com/test')).toBe('db.example.com:5432');
    expect(postgresqlAddress('postgresql://u:p@[::1]:6543/test')).toBe('[::1]:6543');
  });

  test('the default server is the one the tests use', () => {
    expect(DEFAULT_TEST_DATABASE_URL).toBe(DEFAULT_POSTGRESQL_SERVER_URL);
  });
});
