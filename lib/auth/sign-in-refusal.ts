// How the server tells the login page to wait: next-auth passes an authorize() error's message to
// the browser as the sign-in error, so the wait travels inside it. Browser-safe on purpose.
const TOO_MANY_ATTEMPTS = 'TooManyAttempts';

export function tooManyAttemptsError(waitSeconds: number): Error {
  return new Error(`${TOO_MANY_ATTEMPTS}:${waitSeconds}`);
}

/** The seconds to wait, when a sign-in error says there were too many attempts; otherwise null. */
export function waitSecondsOf(signInError: string): number | null {
  if (!signInError.startsWith(`${TOO_MANY_ATTEMPTS}:`)) return null;
  return Number(signInError.slice(TOO_MANY_ATTEMPTS.length + 1)) || 1;
}
