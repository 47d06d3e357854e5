// Database spans, written once for both engines at the one boundary every store operation crosses
// (engine() in lib/db/engine.ts): with tracing on, each call of a store's method is a client span
// named for it ("plants.insertMany") with `db.system.name` sqlite or postgresql, a child of the
// request (or delivery) it serves. Only inside a trace already under way: the dispatcher's polling
// makes no traces of its own. With tracing off engine() never calls this.
import 'server-only';
import { inSpan, SpanKind } from '../tracing/spans';
import type { Engine } from './stores';

/** Whether tracing is on: engine() wraps its engine only then. */
export { tracingOn } from '../tracing/spans';

const STORES = ['plants', 'deliveries', 'loginThrottle', 'rateCounter', 'tokenUse', 'accounts'] as const;

function tracedStore<Store extends object>(system: string, storeName: string, store: Store): Store {
  const traced: Record<string, unknown> = {};
  for (const [method, member] of Object.entries(store)) {
    if (typeof member !== 'function') {
      traced[method] = member;
      continue;
    }
    const operation = `${storeName}.${method}`;
    const attributes = { 'db.system.name': system, 'db.operation.name': operation };
    traced[method] = (...args: unknown[]) =>
      inSpan(operation, { kind: SpanKind.CLIENT, attributes, onlyInTrace: true }, () => (member as (...a: unknown[]) => unknown).apply(store, args));
  }
  return traced as Store;
}

const made = new WeakMap<Engine, Engine>();

/** `engine` with every store operation in a span (made once per engine object). */
export function tracedEngine(engine: Engine): Engine {
  let traced = made.get(engine);
  if (!traced) {
    const stores = Object.fromEntries(STORES.map((name) => [name, tracedStore(engine.name, name, engine[name])]));
    traced = { ...engine, ...stores } as Engine;
    made.set(engine, traced);
  }
  return traced;
}
