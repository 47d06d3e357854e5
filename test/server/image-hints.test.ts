// In a deployment of the standalone build alone (the container image's /app: no tsx, no npm
// scripts that work), every hint names the bundle that runs there, `node cli/user.mjs ...`, not
// `npm run user -- ...`, which fails with "tsx: not found". The build laid out as the image lays it
// out (a copy of .next/standalone outside the checkout, its files hard-linked), and run from there:
// the server's no-staff warning, the sign-in page's first-run box, the commands' usage texts, and
// the message for an SQLite file in use. In the checkout the same hints name the npm scripts
// (test/server/start.test.ts, test/cli/).
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { operatorScript } from '../support/cli';
import { createTestDatabase } from '../support/database';
import { test as base } from '../support/fixtures';

const test = base.extend('image', { scope: 'file' }, async ({}, { onCleanup }) => {
  operatorScript('user'); // says to build first when there is no build
  const folder = mkdtempSync(path.join(os.tmpdir(), 'plant-store-image-'));
  onCleanup(() => rmSync(folder, { recursive: true, force: true }));
  const app = path.join(folder, 'app');
  const copied = spawnSync('cp', ['-al', path.resolve('.next/standalone'), app], { encoding: 'utf8' });
  if (copied.status !== 0) throw new Error(`could not copy the build: ${copied.stderr}`);
  return app;
});

/** `node cli/<name>.mjs ARGS` run in the image's folder, as `docker exec` runs it. */
function inImage(app: string, bundle: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<{ status: number; output: string }>((resolve) => {
    execFile(process.execPath, [`cli/${bundle}.mjs`, ...args], { cwd: app, env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ status: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

test("the commands' usage texts name the bundles", async ({ image }) => {
  const user = await inImage(image, 'user', []);
  expect(user.status).toBe(2);
  expect(user.output).toContain('  node cli/user.mjs create --email EMAIL [--role admin|staff] [--password-stdin]\n');
  expect(user.output).not.toContain('npm run');
  for (const [bundle, line] of [
    ['token', '  node cli/token.mjs revoke ID'],
    ['webhook', '  node cli/webhook.mjs rotate-secret ID'],
    ['db', '  node cli/db.mjs backup [--out FILE]'],
  ]) {
    const { status, output } = await inImage(image, bundle, ['no-such-command']);
    expect(status, output).toBe(2);
    expect(output).toContain(line);
    expect(output).not.toContain('npm run');
  }
});

test('an empty store: the warning and the sign-in page name node cli/user.mjs, and a held SQLite file names node start.mjs', async ({
  image,
  startOwnServer,
  onTestFinished,
}) => {
  // SQLite, whose file a running server holds against migrations.
  const database = await createTestDatabase('sqlite');
  onTestFinished(() => database.remove());
  const server = await startOwnServer({ database, standaloneDir: image });
  await expect.poll(() => server.output()).toContain('no staff account yet: create the first admin with  node cli/user.mjs create --email you@example.com');
  expect(server.output()).not.toContain('npm run');

  const page = await (await fetch(`${server.url}/login`)).text();
  expect(page).toContain('<code>node cli/user.mjs create --email you@example.com</code>');

  const migrate = await inImage(image, 'db-migrate', [], { DATABASE_URL: database.url });
  expect(migrate.status, migrate.output).toBe(1);
  expect(migrate.output).toContain(
    'The SQLite database is in use by another process (a running server?). Stop it, then migrate; node start.mjs migrates before it serves.',
  );
});
