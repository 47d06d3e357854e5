// The migration engine's connections to PostgreSQL (lib/db/schema-engine.ts runs Prisma's schema engine
// through them): @prisma/adapter-pg, with two changes the schema engine needs of it.
import 'server-only';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type Queryable = { performIO?: (...args: unknown[]) => Promise<{ fields: { dataTypeID: number }[] }> };

/**
 * The engine reads PostgreSQL's catalogue, whose one-byte `"char"` columns (pg_class.relkind and
 * the like) @prisma/adapter-pg 7.10 refuses as an unsupported type. pg already hands them over as
 * strings, so they are relabelled as text. Only the migration engine's connections get this.
 */
function readCharAsText<Q extends object>(queryable: Q): Q {
  const target = queryable as Q & Queryable;
  const performIO = target.performIO?.bind(target);
  if (!performIO) throw new Error('@prisma/adapter-pg changed: performIO not found (see lib/db/postgresql/migration-adapter.ts)');
  target.performIO = async (...args) => {
    const result = await performIO(...args);
    for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
  return queryable;
}

type ScriptRunner = {
  executeScript(script: string): Promise<void>;
  underlyingDriver(): { query(text: string): Promise<unknown> };
  onError?(error: unknown): never;
};

/**
 * @prisma/adapter-pg 7.10 runs a migration script by splitting it at every `;`, which breaks a
 * statement that holds one (a function body between `$$`, a string). PostgreSQL takes the whole
 * script as one simple query, dollar quotes included, and runs it as one transaction, as Prisma's
 * native engine does.
 */
function runScriptsWhole<A extends object>(adapter: A): A {
  const target = adapter as A & ScriptRunner;
  if (typeof target.underlyingDriver !== 'function' || typeof target.onError !== 'function') {
    throw new Error('@prisma/adapter-pg changed: underlyingDriver/onError not found (see lib/db/postgresql/migration-adapter.ts)');
  }
  target.executeScript = async (script) => {
    try {
      await target.underlyingDriver().query(script);
    } catch (error) {
      target.onError!(error);
    }
  };
  return adapter;
}

/** The schema engine's adapter to PostgreSQL, with the two changes above on each of its connections. */
export function postgresqlMigrationAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  const factory = new PrismaPg({ connectionString: url });
  const patch = <A extends Awaited<ReturnType<PrismaPg['connect']>>>(adapter: A): A => {
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => readCharAsText(await startTransaction(isolationLevel));
    return readCharAsText(runScriptsWhole(adapter));
  };
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => patch(await factory.connect()),
    connectToShadowDb: async () => patch(await factory.connectToShadowDb()),
  };
}
