// How the server tells the login page why a sign-in did not happen: next-auth passes an
// authorize() error's message to the browser as the sign-in error, so the reason travels inside
// it. Browser-safe on purpose.
const TOO_MANY_ATTEMPTS = 'TooManyAttempts';
const ACCOUNT_DISABLED = 'AccountDisabled';
// The global cap on password hashing was full (lib/auth/passwords/admission.ts); the sign-in route
// turns this into a 503 with Retry-After.
const BUSY = 'Busy';
// A fault, not a refusal; its detail stays in the server's log.
export const SIGN_IN_UNAVAILABLE = 'SignInUnavailable';

export function tooManyAttemptsError(waitSeconds: number): Error {
  return new Error(`${TOO_MANY_ATTEMPTS}:${waitSeconds}`);
}

export function isTooManyAttemptsError(error: unknown): boolean {
  return error instanceof Error && waitSecondsOf(error.message) !== null;
}

export function signInUnavailableError(): Error {
  return new Error(SIGN_IN_UNAVAILABLE);
}

/** The seconds to wait, when a sign-in error says there were too many attempts; otherwise null. */
export function waitSecondsOf(signInError: string): number | null {
  if (!signInError.startsWith(`${TOO_MANY_ATTEMPTS}:`)) return null;
  return Number(signInError.slice(TOO_MANY_ATTEMPTS.length + 1)) || 1;
}

/** The right password for a disabled account. */
export function accountDisabledError(): Error {
  return new Error(ACCOUNT_DISABLED);
}

export function isAccountDisabled(signInError: string): boolean {
  return signInError === ACCOUNT_DISABLED;
}

export function signInBusyError(waitSeconds: number): Error {
  return new Error(`${BUSY}:${waitSeconds}`);
}

export function isSignInBusyError(error: unknown): boolean {
  return error instanceof Error && busySecondsOf(error.message) !== null;
}

/** The seconds to wait, when a sign-in error says the server was too busy to check the password; otherwise null. */
export function busySecondsOf(signInError: string): number | null {
  if (!signInError.startsWith(`${BUSY}:`)) return null;
  return Number(signInError.slice(BUSY.length + 1)) || 1;
}
