// The length of the per-address limits' windows (lib/shared/address-windows.ts), which start on the
// clock's minutes. Its own module, without `server-only`, so that the tests and journeys that wait
// for a fresh window read the same length the server counts in.
export const WINDOW_MS = 60_000;
