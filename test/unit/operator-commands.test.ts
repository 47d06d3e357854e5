// The hints name the command that works where they are printed: the npm script in a checkout with
// its development packages, the build's bundle in a deployment of the standalone build alone (the
// container image's /app). Laid out for real in folders of the test's own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { operatorCommand } from '../../lib/shared/operator-commands';

const root = mkdtempSync(path.join(os.tmpdir(), 'plant-store-commands-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function files(folder: string, names: string[]): string {
  for (const name of names) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), '');
  }
  return folder;
}

const standalone = ['server.js', 'start.mjs', 'package.json', 'cli/user.mjs', 'cli/token.mjs', 'cli/webhook.mjs', 'cli/db.mjs', 'cli/db-migrate.mjs'];
// A checkout: its npm scripts, tsx among its packages, and the build inside it.
const checkout = files(path.join(root, 'checkout'), ['package.json', 'node_modules/.bin/tsx', ...standalone.map((name) => `.next/standalone/${name}`)]);
// The image: the standalone build alone, as /app (its package.json, but no tsx).
const image = files(path.join(root, 'app'), standalone);

describe('in a checkout, the npm scripts', () => {
  test('a command run from the checkout (npm run user, or a bundle run from there)', () => {
    for (const script of [path.join(checkout, 'scripts/user.ts'), path.join(checkout, '.next/standalone/cli/user.mjs')]) {
      const where = { cwd: checkout, script };
      expect(operatorCommand('user', 'create --email you@example.com', where)).toBe('npm run user -- create --email you@example.com');
      expect(operatorCommand('token', 'list', where)).toBe('npm run token -- list');
      expect(operatorCommand('db:migrate', '', where)).toBe('npm run db:migrate');
      expect(operatorCommand('start', '', where)).toBe('npm start');
    }
  });

  test('the server npm start runs, which changes to the standalone folder as it starts', () => {
    const where = { cwd: path.join(checkout, '.next/standalone'), script: path.join(checkout, '.next/standalone/start.mjs') };
    expect(operatorCommand('user', 'create --email you@example.com', where)).toBe('npm run user -- create --email you@example.com');
  });
});

describe('in the image, the bundles', () => {
  test('the server (node start.mjs, or server.js) and the commands, from /app', () => {
    for (const script of ['start.mjs', 'server.js', 'cli/user.mjs', 'cli/db-migrate.mjs']) {
      const where = { cwd: image, script: path.join(image, script) };
      expect(operatorCommand('user', 'create --email you@example.com', where)).toBe('node cli/user.mjs create --email you@example.com');
      expect(operatorCommand('webhook', 'rotate-secret ID', where)).toBe('node cli/webhook.mjs rotate-secret ID');
      expect(operatorCommand('db:migrate', '', where)).toBe('node cli/db-migrate.mjs');
      expect(operatorCommand('start', '', where)).toBe('node start.mjs');
    }
  });

  test('a bundle run from another folder is named by its path from there', () => {
    const elsewhere = files(path.join(root, 'home'), ['notes.txt']);
    const where = { cwd: elsewhere, script: path.join(image, 'cli/user.mjs') };
    expect(operatorCommand('user', 'list', where)).toBe('node ../app/cli/user.mjs list');
    expect(operatorCommand('start', '', where)).toBe('node ../app/start.mjs');
  });
});
