// The operator commands (npm run token, user, webhook, db:migrate) as they ship: the bundles the
// build makes of scripts/<name>.ts (.next/standalone/cli/<name>.mjs, what the Docker image runs).
// They start in a fraction of tsx's time; `npm run build` must have run, as for the API tests.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Arguments for `node` that run the bundled scripts/<script>.ts. */
export function operatorScript(script: string, ...args: string[]): string[] {
  const bundle = path.resolve(`.next/standalone/cli/${script}.mjs`);
  if (!existsSync(bundle)) throw new Error(`No ${bundle}: run \`npm run build\` first`);
  return [bundle, ...args];
}

/** Arguments for `node` that run scripts/<script>.ts as its npm script does in development: TypeScript through tsx. */
export function developmentScript(script: string, ...args: string[]): string[] {
  return ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server', `scripts/${script}.ts`, ...args];
}

export type CliResult = { status: number | null; stdout: string; stderr: string };

/** `npm run db -- ARGS` on the database at `databaseUrl`, without blocking this process (a burst may run beside it). */
export function dbCommand(databaseUrl: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, operatorScript('db', ...args), { env: { ...process.env, DATABASE_URL: databaseUrl } }, (error, stdout, stderr) =>
      resolve({ status: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
