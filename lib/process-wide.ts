// Process-wide state. Next evaluates a module once per route bundle (and the dev server again on
// every change), so module-level state would exist several times in one server process: a token
// revoked by a server action would stay cached for the API routes, and each bundle would open its
// own database connection. Everything that must exist once per process is kept here, under one
// registry, by name.
const REGISTRY = Symbol.for('plant-store.process-wide');

type Registry = Map<string, unknown>;

function registry(): Registry {
  const holder = globalThis as typeof globalThis & { [REGISTRY]?: Registry };
  return (holder[REGISTRY] ??= new Map());
}

/** The process's one value called `name`, made by `create` on first use. */
export function processWide<T>(name: string, create: () => T): T {
  const values = registry();
  if (!values.has(name)) values.set(name, create());
  return values.get(name) as T;
}
