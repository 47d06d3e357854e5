// For the Prisma CLI (where its engine can be downloaded): `prisma migrate deploy` picks the
// schema and migrations of the engine DATABASE_URL names, as `npm run db:migrate` does.
import { defineConfig } from 'prisma/config';

const url = process.env.DATABASE_URL ?? 'file:./data/plants.db';
const folder = /^postgres(?:ql)?:/.test(url) ? 'prisma/postgresql' : 'prisma';

export default defineConfig({
  schema: `${folder}/schema.prisma`,
  migrations: { path: `${folder}/migrations` },
  datasource: { url },
});
