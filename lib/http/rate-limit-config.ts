// The per-minute limits, read apart from the limiters so npm start can check them without
// loading the database client.
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 100;

function perMinute(name: string, fallback: number): number {
  const configured = process.env[name]?.trim();
  if (!configured) return fallback;
  if (configured === 'off') return 0;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number (0 or "off" to turn limiting off), got "${configured}"`);
  }
  return value;
}

/** Requests each caller may make per minute (RATE_LIMIT_PER_MINUTE); 0 turns limiting off. */
export function rateLimitPerMinute(): number {
  return perMinute('RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMIT_PER_MINUTE);
}

/** Failed bearer authentications each client address may cause per minute (AUTH_FAILURES_PER_MINUTE); 0 turns the limit off. */
export function authFailuresPerMinute(): number {
  return perMinute('AUTH_FAILURES_PER_MINUTE', DEFAULT_AUTH_FAILURES_PER_MINUTE);
}
