// The per-minute limits, read apart from the limiters so npm start can check them without
// loading the database client.
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 6000;
export const DEFAULT_AUTH_FAILURES_PER_MINUTE = 100;
export const DEFAULT_PASSWORD_ATTEMPTS_PER_MINUTE = 20;

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

/** Sign-in and set-password attempts each client address may make per minute (PASSWORD_ATTEMPTS_PER_MINUTE); 0 turns the limit off. */
export function passwordAttemptsPerMinute(): number {
  return perMinute('PASSWORD_ATTEMPTS_PER_MINUTE', DEFAULT_PASSWORD_ATTEMPTS_PER_MINUTE);
}

/** How many password hashes may run at once (PASSWORD_HASH_CONCURRENCY), or null for the default. */
export function passwordHashConcurrency(): number | null {
  const configured = process.env.PASSWORD_HASH_CONCURRENCY?.trim();
  if (!configured) return null;
  const value = Number(configured);
  if (!Number.isInteger(value) || value < 1) throw new Error(`PASSWORD_HASH_CONCURRENCY must be a whole number of at least 1, got "${configured}"`);
  return value;
}
