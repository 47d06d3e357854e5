// V8 flags this process sets on itself, first thing, so that `node server.js` and
// `node start.mjs` need none on their command line (see docs/decisions.md, "Node flags").
//
// --liftoff-only: WebAssembly runs on V8's baseline compiler only. Prisma's query compiler and the
// migration engine are WebAssembly; V8 otherwise recompiles their hot functions with TurboFan on
// background threads, whose working memory glibc keeps in per-thread arenas after it is freed: tens
// of MB of the server's RSS, idle, and most of its growth under load (docs/performance.md#memory;
// docs/performance-log.md, "Where the memory went"). Wasm flags are read when a module is compiled,
// so setting this before any is compiled is enough; it changes no heap size.
//
// --semi-space-growth-factor=1 while starting: the young generation keeps the size it started with.
// Starting (migrating, loading every page and route, rendering the public pages once) allocates
// much and keeps much of it, so V8 grows the young generation's semi-spaces as it goes, to one size
// or the next (doubling) depending on the start's timing, and never shrinks them again: the idle
// server held that memory, and which of the sizes a start ended at was most of what varied from one
// start to the next (docs/performance.md#memory). V8 reads the factor each time it would grow them,
// so setting it back to V8's default as the server starts listening (youngGenerationMayGrow) leaves
// serving as it was: under load the young generation grows as before, to the same size.
import v8 from 'node:v8';

v8.setFlagsFromString('--liftoff-only');

/** V8's own growth factor of the young generation (node --v8-options). */
export const SEMI_SPACE_GROWTH_FACTOR = 2;

v8.setFlagsFromString('--semi-space-growth-factor=1');

/** Lets the young generation grow again as V8 would: called once starting is done, before the server listens. */
export function youngGenerationMayGrow(): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
}
