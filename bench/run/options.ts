// npm run bench's command line: its options, their defaults, and the usage text.
import { parseArgs } from 'node:util';
import { TARGET_ALIASES, TARGETS, type Target } from './targets';

export const USAGE = `usage: npm run bench -- [options]

  --target LIST       targets to run, repeatable or comma-separated:
                      post, typical (POST /plants as a typical Next.js + Prisma app writes
                      it: bench/typical, built once and cached under .tmp/),
                      get, get-one, patch, audit, ceiling, next (= next-ceiling + next-post), next-ceiling,
                      next-post, metrics (POST /plants with metrics on and off, in turns),
                      floor (= floor-post + floor-get), floor-post, floor-get,
                      webhook, json (reading JSON bodies, in-process: bench/json-parse.ts),
                      catalogue (batch, search and export on 100,000 plants, SQLite
                      and PostgreSQL: bench/catalogue.ts),
                      instances (POST /plants on PostgreSQL, one server and two:
                      bench/instances.ts)
                      (default: all)
  --duration S        measured seconds per target (default 10; 3 with --quick)
  --warmup S          warm-up seconds per target, results discarded (default 3; 1 with --quick)
  --connections N     concurrent connections (default 32)
  --rounds N          metrics: measured runs of each server, in turns (default 4)
  --quick             smoke check: 1 s warm-up, 3 s measured
  --no-build          use the existing .next build (also BENCH_SKIP_BUILD=1); bench/typical's
                      build is reused whenever its sources have not changed, with or without it
  --sqlite-synchronous MODE
                      NORMAL or FULL: the app servers' SQLITE_SYNCHRONOUS (default: the
                      environment's, else the server's default, FULL; see lib/db/durability.ts)
  -h, --help          this text

  BENCH_SERVER=next-start   serve with next start instead of .next/standalone/start.mjs
  BENCH_CPU_PROF=<dir>      run the app server under node --cpu-prof; the profile (open it in
                            Chrome DevTools or speedscope) is written to <dir> when it stops`;

/** A mistake on the command line: main prints it with the usage text and exits 2. */
export class UsageError extends Error {}

export type ServerMode = 'standalone' | 'next-start';
export type SqliteSynchronous = 'FULL' | 'NORMAL';

export type Options = {
  targets: Target[];
  duration: number;
  warmup: number;
  connections: number;
  rounds: number;
  quick: boolean;
  build: boolean;
  serverMode: ServerMode;
  sqliteSynchronous: SqliteSynchronous;
};

function positive(text: string | undefined, name: string, fallback: number, { integer = false } = {}): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0) || (integer && !Number.isInteger(value))) throw new UsageError(`--${name} must be a positive ${integer ? 'whole ' : ''}number`);
  return value;
}

const isOneOf = <T extends string>(value: string, allowed: readonly T[]): value is T => (allowed as readonly string[]).includes(value);

/** The options of `argv` (process.argv after the script); --help prints the usage and exits. */
export function readOptions(argv: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        target: { type: 'string', multiple: true },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        rounds: { type: 'string' },
        quick: { type: 'boolean', default: false },
        'no-build': { type: 'boolean', default: false },
        'sqlite-synchronous': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const keys = new Set<string>();
  for (const item of (values.target ?? ['all']).flatMap((text) => text.split(','))) {
    const name = item.trim().toLowerCase();
    if (!name) continue;
    const expanded = Object.hasOwn(TARGET_ALIASES, name) ? TARGET_ALIASES[name] : TARGETS.some((target) => target.key === name) ? [name] : null;
    if (!expanded) throw new UsageError(`unknown target "${item}" (post, typical, get, get-one, patch, audit, ceiling, next, next-ceiling, next-post, metrics, floor, floor-post, floor-get, webhook, json, catalogue, instances)`);
    expanded.forEach((key) => keys.add(key));
  }
  if (keys.size === 0) throw new UsageError('--target names no target');

  const synchronous = (values['sqlite-synchronous'] ?? process.env.SQLITE_SYNCHRONOUS ?? 'FULL').trim().toUpperCase();
  if (!isOneOf(synchronous, ['FULL', 'NORMAL'] as const)) throw new UsageError(`--sqlite-synchronous must be NORMAL or FULL, not "${synchronous}"`);

  const server = process.env.BENCH_SERVER?.trim() || 'standalone';
  if (!isOneOf(server, ['next-start', 'standalone'] as const)) throw new UsageError(`BENCH_SERVER must be standalone or next-start, not "${server}"`);
  return {
    targets: TARGETS.filter((target) => keys.has(target.key)),
    duration: positive(values.duration, 'duration', values.quick ? 3 : 10),
    warmup: positive(values.warmup, 'warmup', values.quick ? 1 : 3),
    connections: positive(values.connections, 'connections', 32, { integer: true }),
    rounds: positive(values.rounds, 'rounds', 4, { integer: true }),
    quick: values.quick,
    build: !(values['no-build'] || process.env.BENCH_SKIP_BUILD === '1'),
    serverMode: server,
    sqliteSynchronous: synchronous,
  };
}
