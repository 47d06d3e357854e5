// One full collection, just before the server listens: starting (migrating, loading every page and
// route, rendering the public pages once) leaves tens of MB of garbage that V8 would otherwise keep
// until its heap next fills, so the idle server would hold it (docs/performance.md#memory). The
// `gc` function V8 exposes under --expose-gc is taken from a context made while that flag is set,
// then the flag is cleared again: the app's own context never has a global `gc`.
import v8 from 'node:v8';
import vm from 'node:vm';

/** Collects all garbage now; false when this V8 gave no `gc` (then nothing happens). */
export function collectGarbage(): boolean {
  v8.setFlagsFromString('--expose-gc');
  let gc: unknown;
  try {
    gc = vm.runInNewContext('typeof gc === "function" ? gc : null');
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
  if (typeof gc !== 'function') return false;
  gc();
  return true;
}
