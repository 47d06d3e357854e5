// Empty on purpose: a typical app has no instrumentation hook. The bench builds this app inside the
// Plant Store's folder, and Turbopack looks for instrumentation.ts in the app's folder and then in
// each folder above it, up to its root: without this file it would build the Plant Store's own hook
// into this app, and the typical server would start the store's background work (webhook
// deliveries, retention, backups) on its database.
export function register() {}
