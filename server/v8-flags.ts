// V8 flags this process sets on itself, first thing, so that `node server.js` and
// `node start.mjs` need none on their command line (see docs/decisions.md, "Node flags").
//
// --liftoff-only: WebAssembly runs on V8's baseline compiler only. Prisma's query compiler and the
// migration engine are WebAssembly; V8 otherwise recompiles their hot functions with TurboFan on
// background threads, whose working memory glibc keeps in per-thread arenas after it is freed: tens
// of MB of the server's RSS, idle, and most of its growth under load (docs/performance.md#memory;
// docs/performance-log.md, "Where the memory went"). Wasm flags are read when a module is compiled,
// so setting this before any is compiled is enough; it changes no heap size.
import v8 from 'node:v8';

v8.setFlagsFromString('--liftoff-only');
