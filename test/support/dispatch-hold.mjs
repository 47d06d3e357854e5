// Preloaded (node --import) into a test server as dispatch-hold.mjs?ms=N: its webhook dispatcher
// leaves each committed event N ms before fanning it out into deliveries (lib/webhooks/dispatcher.ts),
// so a test can kill the server between a commit and its delivery, or have two instances find the
// same events due at once. A production server never loads this file.
const REGISTRY = Symbol.for('plant-store.process-wide');
const registry = (globalThis[REGISTRY] ??= new Map());
const ms = Number(new URL(import.meta.url).searchParams.get('ms'));
if (!(ms >= 0)) throw new Error(`dispatch-hold.mjs needs ?ms= a number of milliseconds, got "${new URL(import.meta.url).search}"`);
registry.set('webhook-dispatch-hold', { ms });
