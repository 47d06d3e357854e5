// The second step of a password sign-in, for an account with a second factor. The first step
// (lib/auth/sessions/sign-in.ts), once the password is right, asks for it (secondStepFor) instead of
// starting a session; the second, next-auth's provider `second-factor`, takes the pending sign-in's
// token and a code. The cheap refusals come first: the client address's allowance, which counts a
// code as it counts a password (lib/http/next-auth-route.ts, before next-auth runs), a token that
// is not ours or has expired (a signature check), input over its limit; then the account's own
// throttle of codes, which claims the attempt before the code is checked, as the email's does for
// a password (lib/auth/passwords/login-throttle.ts). Wrong codes are audited within the bound of
// failed sign-ins (lib/auth/sessions/sign-in-failures.ts).
import 'server-only';
import type { User } from 'next-auth';
import { db } from '../../db/client';
import { log } from '../../log';
import { countAuthFailure } from '../../metrics/registry';
import { clientAddress, UNKNOWN_ADDRESS } from '../../shared/client-address';
import { requestIdOf } from '../../shared/request-id';
import { recordSignIn } from '../accounts/changes';
import { claimCodeAttempt, clearCodeAttempts } from './code-throttle';
import { recordFailedSignIn } from '../sessions/sign-in-failures';
import { isTooManyAttemptsError, signInUnavailableError, tooManyAttemptsError } from '../sessions/sign-in-refusal';
import { secondFactorStatus, spendSecondFactorCode } from './factors';
import { pendingSignInToken, readPendingSignIn } from './pending-sign-in';
import { CODE_REPLAYED, isSecondStepError, SECOND_STEP_EXPIRED, secondStepNeededError } from './second-step';

// A recovery code with its dashes is 19 characters; nothing longer is looked at.
const CODE_MAX_LENGTH = 64;

/** The error that asks for the second step, when the account (whose password was right) has a second factor; else null. */
export async function secondStepFor(user: { id: string; sessionVersion: number }): Promise<Error | null> {
  if (!(await secondFactorStatus(user.id)).enrolled) return null;
  return secondStepNeededError(pendingSignInToken({ userId: user.id, sessionVersion: user.sessionVersion }));
}

type Fields = Partial<Record<'pending' | 'code', unknown>> | undefined;
type SignInRequest = { headers?: Record<string, string | string[] | undefined> };

function headersOf(request: SignInRequest | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request?.headers ?? {})) if (typeof value === 'string') headers.set(name, value);
  return headers;
}

/** next-auth's authorize() of the second step: the account, once its code (or a recovery code) is right; null for a wrong one. */
export async function authorizeSecondStep(fields: Fields, request?: SignInRequest): Promise<(User & { sessionVersion: number }) | null> {
  const headers = headersOf(request);
  const address = clientAddress(headers);
  const pending = readPendingSignIn(fields?.pending);
  if (!pending) {
    log.info('second step refused', { reason: 'no pending sign-in', address });
    throw new Error(SECOND_STEP_EXPIRED);
  }
  const code = typeof fields?.code === 'string' ? fields.code.trim() : '';
  if (!code || code.length > CODE_MAX_LENGTH) return null;
  const { userId } = pending;
  try {
    const claim = await claimCodeAttempt(userId);
    if (!claim.allowed) {
      log.info('second step throttled', { userId, address, retryAfterSeconds: claim.retryAfterSeconds });
      throw tooManyAttemptsError(claim.retryAfterSeconds);
    }
    const user = await db().user.findUnique({ where: { id: userId }, select: { id: true, email: true, disabledAt: true, sessionVersion: true } });
    // Disabled, reset or signed out everywhere since the password was given: start again.
    if (!user || user.disabledAt || user.sessionVersion !== pending.sessionVersion) throw new Error(SECOND_STEP_EXPIRED);
    const requestDetails = { requestId: requestIdOf(headers), ...(address === UNKNOWN_ADDRESS ? {} : { clientAddress: address }) };
    const by = { actor: { type: 'staff' as const, id: user.id, name: user.email }, ...requestDetails };
    const check = await spendSecondFactorCode(user.id, code, by);
    if (!check.ok) {
      if (check.reason === 'no factor') throw new Error(SECOND_STEP_EXPIRED);
      log.info('second step failed', { userId, address, reason: check.reason });
      countAuthFailure('sign_in');
      await recordFailedSignIn(user.email, { targetId: user.id, after: { reason: check.reason === 'replayed' ? 'second-factor code used already' : 'wrong second-factor code' } }, by);
      if (check.reason === 'replayed') throw new Error(CODE_REPLAYED);
      return null;
    }
    await clearCodeAttempts(userId);
    const sessionVersion = await recordSignIn(user.id, by);
    log.info('sign-in succeeded', { email: user.email, userId: user.id, address, secondFactor: check.method });
    return { id: user.id, email: user.email, sessionVersion };
  } catch (error) {
    if (isTooManyAttemptsError(error) || isSecondStepError(error)) throw error;
    log.error('second step could not be checked', { address, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    throw signInUnavailableError();
  }
}
