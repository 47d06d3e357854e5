// The build of the typical Next.js + Prisma implementation (bench/typical), cached under .tmp/ by a
// hash of what goes into it, so that only a change to it builds it again (with or without --no-build,
// which is about the project's own build).
//
// It is built in a copy, .tmp/typical-build-<hash>/, not in bench/typical: next build writes into
// the app's folder (its .next, next-env.d.ts, and the defaults it adds to tsconfig.json), and the
// copy keeps all of that out of the repository. The copy sits two folders below the root, as
// bench/typical does, so the app's relative imports of the project's generated Prisma client
// resolve to the same files from both.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { say } from './log';
import { NEXT_BIN, ROOT, TMP_PARENT } from './paths';
import { checkInterrupted, runCommand } from './process-groups';

export const TYPICAL_SOURCE = path.join(ROOT, 'bench/typical');
const BUILD_PREFIX = 'typical-build-';
// Written once next build has succeeded: a folder without it is a build that did not finish.
const BUILT_MARKER = '.built';
// What a build in the app's own folder leaves there; never part of its sources.
const NOT_SOURCES = new Set(['.next', 'node_modules', 'next-env.d.ts']);
// The build bundles these packages and the project's generated client (from prisma/schema.prisma):
// a change to any of them makes another build.
const BUNDLED_PACKAGES = ['next', 'react', 'react-dom', '@prisma/client', '@prisma/adapter-better-sqlite3', 'zod'];

/** The app's source files, relative to bench/typical, in a stable order. */
function sourceFiles(folder = TYPICAL_SOURCE): string[] {
  return readdirSync(folder)
    .filter((name) => !NOT_SOURCES.has(name) && !name.endsWith('.tsbuildinfo'))
    .sort()
    .flatMap((name) => {
      const full = path.join(folder, name);
      return statSync(full).isDirectory() ? sourceFiles(full) : [path.relative(TYPICAL_SOURCE, full)];
    });
}

/** A hash of the app's sources, the schema its Prisma client is generated from, and the bundled packages' versions. */
function typicalHash(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles()) hash.update(`${file}\0`).update(readFileSync(path.join(TYPICAL_SOURCE, file))).update('\0');
  hash.update(readFileSync(path.join(ROOT, 'prisma/schema.prisma')));
  for (const name of BUNDLED_PACKAGES) {
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
    hash.update(`\0${name}@${version}`);
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Turbopack looks for a proxy (middleware) in the app's folder and then in each folder above it, so
 * it compiles the Plant Store's own proxy.ts into this build too. Next runs a proxy only when the
 * build's manifests name it, and this build's must not: the typical app has none.
 */
function checkNoProxy(directory: string) {
  const manifest = (name: string) => JSON.parse(readFileSync(path.join(directory, '.next/server', name), 'utf8')) as Record<string, Record<string, unknown>>;
  const named = [...Object.keys(manifest('middleware-manifest.json').middleware), ...Object.keys(manifest('functions-config-manifest.json').functions)];
  if (named.length) throw new Error(`bench/typical's build runs a proxy (${named.join(', ')}): the typical app must have none`);
}

export type TypicalBuild = { directory: string; cached: boolean };

/** The folder of a finished build of bench/typical as it is now: the cached one, or one built now. */
export async function typicalBuild(): Promise<TypicalBuild> {
  const directory = path.join(TMP_PARENT, `${BUILD_PREFIX}${typicalHash()}`);
  const shown = path.relative(ROOT, directory);
  if (existsSync(path.join(directory, BUILT_MARKER))) {
    say(`typical: bench/typical's build is cached in ${shown}; not building it again`);
    return { directory, cached: true };
  }
  say(`typical: building bench/typical (next build) in ${shown}`);
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  for (const file of sourceFiles()) cpSync(path.join(TYPICAL_SOURCE, file), path.join(directory, file));
  await runCommand('next build (bench/typical)', process.execPath, [NEXT_BIN, 'build', directory], {
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  checkInterrupted();
  checkNoProxy(directory);
  writeFileSync(path.join(directory, BUILT_MARKER), `${new Date().toISOString()}\n`);
  // Builds of earlier sources are never used again.
  for (const name of readdirSync(TMP_PARENT)) {
    if (name.startsWith(BUILD_PREFIX) && path.join(TMP_PARENT, name) !== directory) rmSync(path.join(TMP_PARENT, name), { recursive: true, force: true });
  }
  return { directory, cached: false };
}
