// Throwaway PostgreSQL databases, for tests and for computing migrations: a fresh database on a
// server (TEST_DATABASE_URL's), dropped afterwards.
import 'server-only';
import pg from 'pg';
import type { TemporaryDatabase } from '../stores';

/** Where PostgreSQL tests and diffs run unless TEST_DATABASE_URL says otherwise. */
export const DEFAULT_POSTGRESQL_SERVER_URL = 'postgresql://postgres@127.0.0.1:5432/test';

/** The PostgreSQL server throwaway databases are made on (the tests', and npm run db:diff's). */
export function postgresqlServerUrl(): string {
  return process.env.TEST_DATABASE_URL?.trim() || DEFAULT_POSTGRESQL_SERVER_URL;
}

async function withAdminClient<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    // URL.host would carry the port already.
    const { hostname, port } = new URL(serverUrl);
    const address = `${hostname || 'localhost'}:${port || 5432}`;
    // The server answered, and refused this user, its password or the database named.
    if (error instanceof pg.DatabaseError) {
      throw new Error(
        `PostgreSQL at ${address} refused the connection (${(error as Error).message}). ` +
          'Point TEST_DATABASE_URL at a database that exists there (it is only used to connect), as a user who may CREATE DATABASE.',
      );
    }
    throw new Error(
      `Cannot reach PostgreSQL at ${address} (${(error as Error).message}). ` +
        'Start it, or point TEST_DATABASE_URL at a server where this user may CREATE DATABASE.',
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createPostgresqlDatabase(purpose: string): Promise<TemporaryDatabase> {
  const serverUrl = postgresqlServerUrl();
  const name = `plant_store_${purpose}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await withAdminClient(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    engine: 'postgresql',
    url: url.toString(),
    drop: () => withAdminClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => {}),
  };
}
