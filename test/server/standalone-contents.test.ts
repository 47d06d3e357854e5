// What `npm run build` leaves in .next/standalone, which is the whole program (docs/operations.md,
// The build): the server, the start-up steps, the operator commands and both engines' schemas and
// migrations, which the start reads by a path the build cannot trace; and none of the project's
// tests, journeys, benchmarks or manual, which a path it could not trace once pulled in.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';

const standalone = path.resolve('.next/standalone');

test('the build holds the program and both engines\' migrations, and not the tests, the benchmarks or the manual', () => {
  for (const file of ['server.js', 'start.mjs', 'cli/db-migrate.mjs', 'prisma/schema.prisma', 'prisma/postgresql/schema.prisma']) {
    expect(existsSync(path.join(standalone, file)), file).toBe(true);
  }
  for (const migrations of ['prisma/migrations', 'prisma/postgresql/migrations']) {
    expect(readdirSync(path.join(standalone, migrations)).sort()).toEqual(readdirSync(migrations).sort());
  }
  const top = readdirSync(standalone);
  for (const folder of ['test', 'e2e', 'bench', 'docs', 'spec']) expect(top, folder).not.toContain(folder);
  expect(top.filter((name) => name.endsWith('.md'))).toEqual([]);
});
