// What the server's bundle has for `next/server` (scripts/build.mjs). The route handlers' modules
// import after() from it, which lib/webhooks/wake.ts calls only on Vercel, where this server never
// runs; Next's own belongs to the requests of Next's router, and loading it outside them fails.
export function after(): never {
  throw new Error("after() runs only under Next's router; the production server's direct path has none");
}
