// Runs `prisma generate` for both engines without network access.
//
// prisma/schema.prisma (SQLite) is the one schema people edit. The PostgreSQL schema is written
// from it here, differing only in its generator output, its datasource provider and the lines
// marked `// postgresql:` there, so the two cannot drift; test/db/schema.test.ts fails if the
// committed copy is stale.
//
// The Prisma CLI insists on locating a schema engine binary before it will generate, although
// generate never runs it; downloading one is impossible offline, so any existing executable does.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const SQLITE_SCHEMA = 'prisma/schema.prisma';
export const POSTGRESQL_SCHEMA = 'prisma/postgresql/schema.prisma';

/** The PostgreSQL schema text for a given SQLite schema text. */
export function postgresqlSchemaFrom(sqliteSchema) {
  const replaced = sqliteSchema
    .replace(/^\/\/ SQLite schema:.*\n/m, '')
    .replace('output       = "../lib/db/generated/sqlite"', 'output       = "../../lib/db/generated/postgresql"')
    .replace(/(datasource db \{\s*provider = )"sqlite"/, '$1"postgresql"')
    // Lines only PostgreSQL can express (a GIN index, say) stand in the SQLite schema as comments.
    .replace(/^(\s*)\/\/ postgresql: /gm, '$1');
  if (!replaced.includes('generated/postgresql') || !replaced.includes('"postgresql"')) {
    throw new Error(`${SQLITE_SCHEMA}: generator output or datasource provider not in the expected form`);
  }
  return (
    `// PostgreSQL schema: GENERATED from ${SQLITE_SCHEMA} by scripts/prisma-generate.mjs. Do not edit;\n` +
    `// edit that file and run \`npm run db:generate\`. Migrations live in prisma/postgresql/migrations.\n` +
    replaced
  );
}

function main() {
  writeFileSync(POSTGRESQL_SCHEMA, postgresqlSchemaFrom(readFileSync(SQLITE_SCHEMA, 'utf8')));
  const require = createRequire(import.meta.url);
  const prismaCli = require.resolve('prisma/build/index.js');
  const env = {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
  };
  for (const schema of [SQLITE_SCHEMA, POSTGRESQL_SCHEMA]) {
    const result = spawnSync(process.execPath, [prismaCli, 'generate', '--schema', schema], { stdio: 'inherit', env });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
