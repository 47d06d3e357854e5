// How the sign-in's two steps speak to the sign-in page. next-auth passes an authorize() error's
// message to the browser as the sign-in error (lib/auth/sessions/sign-in-refusal.ts), so the first
// step's "the password is right, now the code" travels inside one, with the pending sign-in's token
// (lib/auth/second-factor/pending-sign-in.ts); the second step is the provider below, which the page
// posts the token and the code to. Browser-safe on purpose.

/** The second step's provider: its callback is /api/auth/callback/second-factor. */
export const SECOND_FACTOR_PROVIDER_ID = 'second-factor';

const SECOND_STEP = 'SecondStep';
/** The pending sign-in's token is not (or no longer) good: the password must be given again. */
export const SECOND_STEP_EXPIRED = 'SecondStepExpired';
/** The code was right, and was used already. */
export const CODE_REPLAYED = 'CodeReplayed';

export function secondStepNeededError(pendingToken: string): Error {
  return new Error(`${SECOND_STEP}:${pendingToken}`);
}

/** The pending sign-in's token, when a sign-in error asks for the second step; otherwise null. */
export function secondStepTokenOf(signInError: string): string | null {
  return signInError.startsWith(`${SECOND_STEP}:`) ? signInError.slice(SECOND_STEP.length + 1) : null;
}

export function isSecondStepError(error: unknown): boolean {
  return error instanceof Error && (secondStepTokenOf(error.message) !== null || error.message === SECOND_STEP_EXPIRED || error.message === CODE_REPLAYED);
}
