// Checking a staff member's email and password, for next-auth's Credentials provider. The cheap
// refusals come first: the client address's allowance (lib/http/next-auth-route.ts, before
// next-auth runs), input over its limit, then the email's throttle, which claims the attempt
// before the password is hashed (lib/auth/passwords/login-throttle.ts); the hash itself waits for a slot of
// the global cap (lib/auth/passwords/admission.ts). Every outcome is one JSON log line with the
// email and the client's address; never the password. Failures are audited within a bound
// (lib/auth/sessions/sign-in-failures.ts).
import 'server-only';
import { recordAudit } from '../../audit/records';
import { clientAddress, UNKNOWN_ADDRESS } from '../../shared/client-address';
import { requestIdOf } from '../../shared/request-id';
import { log } from '../../log';
import { countAuthFailure } from '../../metrics/registry';
import { recordSignIn } from '../accounts/changes';
import { claimLoginAttempt, clearLoginAttempts } from '../passwords/login-throttle';
import { dummyPasswordHash, verifyPassword } from '../passwords/hash';
import { PasswordHashingBusyError } from '../passwords/admission';
import { isOverlongPassword } from '../passwords/policy';
import { recordFailedSignIn } from './sign-in-failures';
import {
  accountDisabledError,
  isAccountDisabled,
  isSignInBusyError,
  isTooManyAttemptsError,
  signInBusyError,
  signInUnavailableError,
  tooManyAttemptsError,
} from './sign-in-refusal';
import { findUserByEmail } from '../accounts/directory';
import { secondStepFor } from '../second-factor/sign-in-step';
import { isSecondStepError } from '../second-factor/second-step';
import { passwordSignInAdminsOnly } from '../oidc/password-sign-in';
import { PASSWORD_SIGN_IN_ADMINS_ONLY } from '../oidc/refusals';

// RFC 5321's limit on an address; no account can have a longer one (lib/auth/accounts/directory.ts).
export const EMAIL_MAX_LENGTH = 254;

type Credentials = Partial<Record<'email' | 'password', unknown>> | undefined;
type SignInRequest = { headers?: Record<string, string | string[] | undefined> };

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function headersOf(request: SignInRequest | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request?.headers ?? {})) if (typeof value === 'string') headers.set(name, value);
  return headers;
}

/** The staff member these credentials belong to, or null; throws when the email must wait or the account is disabled. */
export async function authorizeStaff(
  credentials: Credentials,
  request?: SignInRequest,
): Promise<{ id: string; email: string; sessionVersion: number } | null> {
  const email = text(credentials?.email).trim().toLowerCase();
  const password = text(credentials?.password);
  const headers = headersOf(request);
  const address = clientAddress(headers);
  if (!email || !password) return null;
  if (email.length > EMAIL_MAX_LENGTH || isOverlongPassword(password)) {
    // No account can match, so nothing is looked up, hashed or counted.
    log.info('sign-in refused', { reason: 'input too long', emailLength: email.length, passwordLength: password.length, address });
    return null;
  }

  try {
    const claim = await claimLoginAttempt(email);
    if (!claim.allowed) {
      log.info('sign-in throttled', { email, address, retryAfterSeconds: claim.retryAfterSeconds });
      throw tooManyAttemptsError(claim.retryAfterSeconds);
    }
    // An unknown email is checked against a dummy hash, so it costs what a wrong password costs.
    const user = await findUserByEmail(email);
    const matches = await verifyPassword(password, user?.passwordHash ?? (await dummyPasswordHash()));
    // In the audit trail too: the email as typed (an account's, or one nobody has), so a guessing
    // run shows there.
    const requestDetails = { requestId: requestIdOf(headers), ...(address === UNKNOWN_ADDRESS ? {} : { clientAddress: address }) };
    const actor = user ? { type: 'staff' as const, id: user.id, name: user.email } : { type: 'staff' as const, name: email };
    if (!user || !matches) {
      log.info('sign-in failed', { email, address });
      countAuthFailure('sign_in');
      await recordFailedSignIn(email, { targetId: user?.id ?? email }, { actor, ...requestDetails });
      return null;
    }
    await clearLoginAttempts(email);
    // Only once the password is right, so the status of an account is no one else's to learn.
    if (user.disabledAt) {
      log.info('sign-in refused', { reason: 'account disabled', email, userId: user.id, address });
      await recordAudit(
        { action: 'staff.sign_in_failed', target: { type: 'staff', id: user.id }, after: { reason: 'account disabled' } },
        { actor, ...requestDetails },
      );
      throw accountDisabledError();
    }
    // Only once the password is right too: password sign-in may be for admins only (lib/auth/oidc/password-sign-in.ts).
    if (user.role !== 'admin' && (await passwordSignInAdminsOnly())) {
      log.info('sign-in refused', { reason: 'password sign-in is for admins only', email, userId: user.id, address });
      await recordFailedSignIn(email, { targetId: user.id, after: { reason: 'password sign-in is for admins only' } }, { actor, ...requestDetails });
      throw new Error(PASSWORD_SIGN_IN_ADMINS_ONLY);
    }
    // An account with a second factor is signed in by the second step, with its code.
    const secondStep = await secondStepFor(user);
    if (secondStep) {
      log.info('sign-in needs the second factor', { email, userId: user.id, address });
      throw secondStep;
    }
    const sessionVersion = await recordSignIn(user.id, { actor, ...requestDetails });
    log.info('sign-in succeeded', { email, userId: user.id, address });
    return { id: user.id, email: user.email, sessionVersion };
  } catch (error) {
    if (
      isTooManyAttemptsError(error) ||
      isSignInBusyError(error) ||
      isSecondStepError(error) ||
      (error instanceof Error && (isAccountDisabled(error.message) || error.message === PASSWORD_SIGN_IN_ADMINS_ONLY))
    )
      throw error;
    if (error instanceof PasswordHashingBusyError) {
      log.info('sign-in refused', { reason: 'password hashing busy', email, address });
      throw signInBusyError(error.retryAfterSeconds);
    }
    // next-auth would hand the message to the browser; it belongs in the log.
    log.error('sign-in could not be checked', { address, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    throw signInUnavailableError();
  }
}
