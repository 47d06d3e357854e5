// RATE_LIMIT_PER_MINUTE, read apart from the limiter so npm start can check it without loading
// the database client.
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;

/** The configured limit; 0 (or `off`) turns limiting off. */
export function rateLimitPerMinute(): number {
  const configured = process.env.RATE_LIMIT_PER_MINUTE?.trim();
  if (!configured) return DEFAULT_RATE_LIMIT_PER_MINUTE;
  if (configured === 'off') return 0;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`RATE_LIMIT_PER_MINUTE must be a whole number (0 or "off" to turn limiting off), got "${configured}"`);
  }
  return value;
}
