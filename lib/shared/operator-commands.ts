// How an operator runs a command where this process runs, for the hints the server, the pages
// and the commands print. In a checkout, with its development packages, it is the npm script
// (`npm run user -- create ...`, `npm start`), which runs the TypeScript through tsx. In a
// deployment of the standalone build alone (the container image, or .next/standalone copied to a
// host) there is no tsx and no npm script: there it is the bundle the build wrote
// (`node cli/user.mjs create ...`, `node start.mjs`), named by its path from the working folder.
import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The operator commands, by their npm script's name. */
export type OperatorCommand = 'user' | 'token' | 'webhook' | 'db' | 'db:migrate' | 'start';

/** Where this process runs: its working folder and its main script. */
export type Whereabouts = { cwd: string; script: string | undefined };

const here = (): Whereabouts => ({ cwd: process.cwd(), script: process.argv[1] });

/** The bundle a command is in the standalone build (scripts/build.mjs writes them). */
function bundleOf(command: OperatorCommand): string {
  if (command === 'start') return 'start.mjs';
  return `cli/${command.replace(':', '-')}.mjs`;
}

/**
 * The checkout this process runs from, if it has its development packages: the working folder
 * itself (npm run ..., or a bundle run from the checkout), or the one around the standalone build
 * the server runs in (it changes to that folder as it starts, server/main.ts).
 */
function checkout({ cwd }: Whereabouts): string | undefined {
  const candidates = [cwd];
  if (path.basename(cwd) === 'standalone' && path.basename(path.dirname(cwd)) === '.next') candidates.push(path.resolve(cwd, '../..'));
  return candidates.find(
    (folder) =>
      existsSync(/* turbopackIgnore: true */ path.join(folder, 'package.json')) &&
      existsSync(/* turbopackIgnore: true */ path.join(folder, 'node_modules/.bin/tsx')),
  );
}

/** The standalone build this process belongs to: beside its main script, or the working folder. */
function standaloneDir({ cwd, script }: Whereabouts): string {
  if (script) {
    const folder = path.dirname(path.resolve(/* turbopackIgnore: true */ cwd, script));
    for (const candidate of [folder, path.dirname(folder)]) if (existsSync(/* turbopackIgnore: true */ path.join(candidate, 'start.mjs'))) return candidate;
  }
  return cwd;
}

/**
 * The command line that runs `command` with `args` where this process runs: `npm run user -- create
 * --email you@example.com` in a checkout, `node cli/user.mjs create --email you@example.com` in the
 * container image.
 */
export function operatorCommand(command: OperatorCommand, args = '', where: Whereabouts = here()): string {
  const tail = args ? ` ${args}` : '';
  if (checkout(where) !== undefined) {
    if (command === 'start') return `npm start${tail}`;
    return `npm run ${command}${tail ? ` --${tail}` : ''}`;
  }
  const bundle = path.relative(where.cwd, path.join(/* turbopackIgnore: true */ standaloneDir(where), bundleOf(command)));
  return `node ${bundle}${tail}`;
}
