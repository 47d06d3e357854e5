// Where the tests, the benchmarks and db:diff make their throwaway PostgreSQL databases: a server that
// cannot be reached, and one that answers but refuses the database named, each told as it is, by
// the address written once.
import net from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createTemporaryDatabase, postgresqlServerUrl } from '../../lib/db/engine';
import { envAsItIs, setEnv } from '../support/settings';

afterEach(envAsItIs('TEST_DATABASE_URL'));

describe("TEST_DATABASE_URL's server", () => {
  test('a database that does not exist there is refused by the server, not unreachable', async () => {
    const url = new URL(postgresqlServerUrl());
    url.pathname = '/plant_store_no_such_database';
    setEnv({ TEST_DATABASE_URL: url.toString() });
    const address = `${url.hostname}:${url.port || 5432}`;
    await expect(createTemporaryDatabase('postgresql')).rejects.toThrow(
      `PostgreSQL at ${address} refused the connection (database "plant_store_no_such_database" does not exist). ` +
        'Point TEST_DATABASE_URL at a database that exists there (it is only used to connect), as a user who may CREATE DATABASE.',
    );
  });

  test('a port nothing listens on cannot be reached, named with its port once', async () => {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    setEnv({ TEST_DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/test` });
    await expect(createTemporaryDatabase('postgresql')).rejects.toThrow(
      new RegExp(`^Cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port} \\(connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\)\\. Start it`),
    );
  });
});
