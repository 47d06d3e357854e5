// How long a client may take to send a request. Plain JavaScript, read by the production server
// (main.mjs) and checked by npm start (scripts/start.ts).

export const BODY_TIMEOUT_DEFAULT_MS = 10_000;

/**
 * BODY_TIMEOUT_MS: the milliseconds a request, head and body, may take to arrive; `0` or `off`
 * for no limit. Throws on anything else, so npm start refuses it at once.
 * @param {Record<string, string | undefined>} env
 * @returns {number}
 */
export function bodyTimeoutMs(env = process.env) {
  const configured = env.BODY_TIMEOUT_MS?.trim().toLowerCase();
  if (!configured) return BODY_TIMEOUT_DEFAULT_MS;
  if (configured === 'off') return 0;
  if (/^\d{1,9}$/.test(configured)) return Number(configured);
  throw new Error(`BODY_TIMEOUT_MS must be a whole number of milliseconds (or off), got "${env.BODY_TIMEOUT_MS}"`);
}
