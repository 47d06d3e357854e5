// The one Node flag the server's command line carries: a cap on V8's old generation. V8 sizes its
// heap from the machine's memory as the process starts (on a machine with 24 GiB, a 4 GiB cap, and a
// young generation sized to match) and lets it grow lazily toward that, so under a sustained
// POST /plants load the server held much more than it needs. Capped at 384 MiB, V8 sizes the heap for the cap
// and collects sooner: the same load peaks about a third lower, for a few per cent of the direct path's
// throughput (docs/performance.md#memory). The cap is far above what the server holds live, so it
// bounds growth without risking an out-of-memory exit. It cannot be set from inside the process (the heap is configured before any
// script runs), so npm start, the Docker image's CMD, the benchmark and the test servers all pass it:
// the first two as a literal that test/unit/heap-limit.test.ts checks against this one.
export const HEAP_LIMIT_MB = 384;
export const HEAP_LIMIT_FLAG = `--max-old-space-size=${HEAP_LIMIT_MB}`;

/**
 * Whether this process was started with a cap on the old generation (any value: an operator may
 * choose another), on its command line or in NODE_OPTIONS (Node's own variable, not a setting).
 */
export function heapLimitSet(execArgv: string[] = process.execArgv, nodeOptions: string | undefined = process.env.NODE_OPTIONS): boolean {
  const named = (flag: string) => /^--max[-_]old[-_]space[-_]size(=|$)/.test(flag);
  return execArgv.some(named) || (nodeOptions ?? '').split(/\s+/).some(named);
}
