// The targets another bench script measures, each in a process of its own run through tsx: json
// (bench/json-parse.ts), catalogue (bench/catalogue.ts) and instances (bench/instances.ts). Each
// writes its figures to a file (--json) that the run reads back into its results.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { say } from './log';
import type { Options } from './options';
import { TMP_DIR, TSX_BIN, TSX_CONDITIONS } from './paths';
import { checkInterrupted, runCommand } from './process-groups';
import type { BenchRun, CatalogueFigures, InstancesFigures, JsonFigures } from './results';

/** Runs `script` (a path from the repository's root) with `--json FILE` and its own `args`; its figures. */
export async function figuresOf<T>(script: string, name: string, args: string[] = [], env?: NodeJS.ProcessEnv): Promise<T> {
  const figures = path.join(TMP_DIR, `${name}.json`);
  await runCommand(script, TSX_BIN, [...TSX_CONDITIONS, script, '--json', figures, ...args], { env });
  return JSON.parse(readFileSync(figures, 'utf8')) as T;
}

/** Runs one script target: its figures go into `run` by `measure`, a failure into run.failures. */
async function runScriptTarget(run: BenchRun, key: string, announcement: string, measure: () => Promise<void>) {
  checkInterrupted();
  say(`${key}: ${announcement}`);
  try {
    await measure();
  } catch (error) {
    run.failures.push(`${key}: ${(error as Error).message}`);
  }
}

/** Runs the script targets `options` names, recording each figure (or failure) in `run`. */
export async function runScriptTargets(run: BenchRun, options: Options) {
  const chosen = (key: string) => options.targets.some((target) => target.key === key);
  if (chosen('json')) {
    await runScriptTarget(run, 'json', 'bench/json-parse.ts, in-process', async () => {
      run.json = await figuresOf<JsonFigures>('bench/json-parse.ts', 'json');
    });
  }
  if (chosen('catalogue')) {
    await runScriptTarget(run, 'catalogue', 'bench/catalogue.ts on SQLite and PostgreSQL (its own servers and databases)', async () => {
      run.catalogue = await figuresOf<CatalogueFigures[]>('bench/catalogue.ts', 'catalogue', ['--duration', String(options.duration)]);
    });
  }
  if (chosen('instances')) {
    await runScriptTarget(run, 'instances', 'bench/instances.ts, POST /plants on PostgreSQL (its own servers and database)', async () => {
      run.instances = await figuresOf<InstancesFigures>('bench/instances.ts', 'instances', [], { ...process.env, BENCH_DURATION: String(options.duration) });
    });
  }
}
