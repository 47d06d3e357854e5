// Which X-Forwarded-* headers this service believes. Anyone can send them; only a reverse proxy the
// operator put in front (TRUST_PROXY) may be believed. The production server (main.mjs) applies
// this to every request before anything reads it, on the direct path and Next's alike;
// lib/shared/client-address.ts and lib/http/origin.ts read the result. Plain JavaScript, because the
// server loads it from the standalone build as it is.

// Headers that name a client address, host or scheme on the client's behalf.
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port', 'forwarded', 'x-real-ip'];

/**
 * How many reverse proxies in front of the server append to X-Forwarded-For and may be believed:
 * TRUST_PROXY=true is one, a number says how many, false (the default) none. On Vercel, whose
 * edge sets the headers itself, the default is one.
 * @param {Record<string, string | undefined>} env
 * @returns {number}
 */
export function trustedProxyHops(env = process.env) {
  const configured = env.TRUST_PROXY?.trim().toLowerCase();
  if (!configured) return env.VERCEL ? 1 : 0;
  if (configured === 'true') return 1;
  if (configured === 'false') return 0;
  if (/^\d{1,2}$/.test(configured)) return Number(configured);
  throw new Error(`TRUST_PROXY must be true, false or a number of proxies, got "${env.TRUST_PROXY}"`);
}

/**
 * Makes a request's forwarded headers say only what can be believed. Without a trusted proxy, the
 * client's own X-Forwarded-* are removed and X-Forwarded-For becomes the socket's address (Next
 * only sets it when absent). Behind a trusted proxy they stay; a request that reached the server
 * without one gets the socket's address.
 * @param {import('node:http').IncomingMessage} request
 * @param {number} hops what trustedProxyHops() said
 */
export function settleForwardedHeaders(request, hops) {
  const socketAddress = request.socket.remoteAddress ?? '';
  if (hops === 0) {
    for (const name of FORWARDED_HEADERS) delete request.headers[name];
    request.headers['x-forwarded-for'] = socketAddress;
  } else {
    request.headers['x-forwarded-for'] ??= socketAddress;
  }
}
