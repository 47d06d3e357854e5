// Next.js's private surface lives in one file, server/next-internals.ts, so an upgrade of Next is
// checked there (docs/architecture.md, "Upgrading Next.js"). This fails when any other file of the
// repository names a module under next/dist.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const THE_ONE_FILE = 'server/next-internals.ts';
const SCANNED = ['app', 'bench', 'components', 'e2e', 'lib', 'scripts', 'server', 'test', 'types'];
const ROOT_FILES = ['proxy.ts', 'next.config.js', 'instrumentation.ts', 'playwright.config.ts', 'vitest.config.ts'];
const SKIPPED = new Set(['node_modules', 'generated']);
const PRIVATE_IMPORT = /['"`]next\/dist\//;

function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : /\.(ts|tsx|mjs|js)$/.test(name) ? [full] : [];
  });
}

describe("Next's private modules", () => {
  it(`are named in ${THE_ONE_FILE} only`, () => {
    const files = [...SCANNED.flatMap((folder) => filesUnder(path.join(ROOT, folder))), ...ROOT_FILES.map((name) => path.join(ROOT, name))];
    const naming = files.map((file) => path.relative(ROOT, file)).filter((file) => file !== THE_ONE_FILE && PRIVATE_IMPORT.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(naming).toEqual([]);
    expect(readFileSync(path.join(ROOT, THE_ONE_FILE), 'utf8')).toMatch(PRIVATE_IMPORT);
  });
});
