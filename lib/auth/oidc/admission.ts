// Who a verified ID token lets in (next-auth's signIn callback, for the identity provider):
// - its email must be verified by the provider (`email_verified: true`; Microsoft Entra ID says so
//   with `xms_edov: true` instead, the domain's owner having verified it);
// - an account with that email (matched case-insensitively, as password sign-in matches) signs in,
//   with its role; a disabled one is refused, as it is for a password;
// - a new email makes a staff account only when its domain is in OIDC_ALLOWED_DOMAINS; without the
//   list, no account is made.
// A success is audited (`staff.signed_in`, method oidc) and carries the account's session version,
// so everything that ends a password session ends this one too (lib/auth/sessions/rules.ts). A
// refusal sends the browser to /login with its reason (lib/auth/oidc/refusals.ts) and is audited
// within the bounds of failed password sign-ins (lib/auth/sessions/sign-in-failures.ts).
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import { incomingRequest } from '../../audit/incoming-request';
import { log } from '../../log';
import { countAuthFailure, countOidcSignIn, type OidcSignInOutcome } from '../../metrics/registry';
import { recordSignIn } from '../accounts/changes';
import { findUserByEmail } from '../accounts/directory';
import { recordFailedSignIn } from '../sessions/sign-in-failures';
import { createProviderAccount } from './accounts';
import { oidcConfig, type OidcConfig } from './config';
import type { OidcClaims } from './provider';
import type { OidcRefusal } from './refusals';

// RFC 5321's limit on an address, as for password sign-in.
const EMAIL_MAX_LENGTH = 254;

/** The user object next-auth hands on to the jwt callback: the account's, once admitted. */
type AdmittedUser = { id: string; email?: string | null; sessionVersion?: number };

const OUTCOME: Record<OidcRefusal, OidcSignInOutcome> = {
  OidcProviderRefused: 'provider_refused',
  OidcEmailNotVerified: 'email_not_verified',
  OidcDomainNotAllowed: 'domain_not_allowed',
  OidcAccountDisabled: 'account_disabled',
  OidcTryAgain: 'try_again',
  OidcTooManyAttempts: 'too_many_attempts',
  OidcUnavailable: 'unavailable',
};

/** Where next-auth sends a refused sign-in: the sign-in page, which says why. */
export const refusedTo = (code: OidcRefusal) => `/login?error=${code}`;

/**
 * Writes a refused sign-in through the provider: a log line, the metrics, and an audit record
 * within the per-address bound; `email` as the provider gave it (or none, when no ID token was
 * verified), `accountId` when an account has it.
 */
export async function recordOidcRefusal(
  code: OidcRefusal,
  detail: { email?: string; accountId?: string; reason: string },
  context: Omit<ChangeContext, 'actor'>,
): Promise<void> {
  const email = detail.email ?? '(no verified ID token)';
  log.info('sign-in refused', { method: 'oidc', reason: detail.reason, email, address: context.clientAddress });
  countOidcSignIn(OUTCOME[code]);
  countAuthFailure('sign_in');
  const actor = detail.accountId ? { type: 'staff' as const, id: detail.accountId, name: email } : { type: 'staff' as const, name: email };
  await recordFailedSignIn(email, { targetId: detail.accountId ?? email, after: { method: 'oidc', reason: detail.reason } }, { actor, ...context });
}

const emailVerified = (claims: OidcClaims) => claims.email_verified === true || claims.xms_edov === true;

/** The domain after the last @ of `email`. */
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

async function admit(config: OidcConfig, user: AdmittedUser, claims: OidcClaims, context: Omit<ChangeContext, 'actor'>): Promise<true | string> {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const refuse = async (code: OidcRefusal, reason: string, accountId?: string) => {
    await recordOidcRefusal(code, { email: email || `sub:${String(claims.sub).slice(0, 64)}`, accountId, reason }, context);
    return refusedTo(code);
  };
  if (!email || email.length > EMAIL_MAX_LENGTH || !email.includes('@')) return refuse('OidcEmailNotVerified', 'the ID token has no email');
  if (!emailVerified(claims)) return refuse('OidcEmailNotVerified', 'email not verified by the provider');

  let account = await findUserByEmail(email);
  if (!account) {
    if (!config.allowedDomains.includes(domainOf(email))) {
      return refuse('OidcDomainNotAllowed', config.allowedDomains.length === 0 ? 'no account, and no domain may make one' : 'no account, and the domain is not allowed');
    }
    const created = await createProviderAccount(email, config.issuer, context);
    if (created) {
      log.info('sign-in succeeded', { method: 'oidc', email, userId: created.id, address: context.clientAddress, created: true });
      countOidcSignIn('account_created');
      Object.assign(user, { id: created.id, email, sessionVersion: created.sessionVersion });
      return true;
    }
    // Made meanwhile by another sign-in with the same email: sign in to it.
    account = await findUserByEmail(email);
    if (!account) return refuse('OidcUnavailable', 'the account could not be made');
  }
  if (account.disabledAt) return refuse('OidcAccountDisabled', 'account disabled', account.id);
  const sessionVersion = await recordSignIn(account.id, { actor: { type: 'staff', id: account.id, name: account.email }, ...context }, new Date(), { method: 'oidc' });
  log.info('sign-in succeeded', { method: 'oidc', email, userId: account.id, address: context.clientAddress });
  countOidcSignIn('signed_in');
  Object.assign(user, { id: account.id, email: account.email, sessionVersion });
  return true;
}

/**
 * next-auth's signIn callback for the identity provider: true once `user` is the account signed in
 * to (its id, email and session version, which the jwt callback puts in the cookie), or the path of
 * the sign-in page with the reason for a refusal. Never throws: a fault is logged and refused.
 */
export async function admitOidcSignIn(params: { user: unknown; profile?: unknown }): Promise<true | string> {
  const config = oidcConfig();
  let context: Omit<ChangeContext, 'actor'> = {};
  try {
    context = await incomingRequest();
    if (!config) return refusedTo('OidcUnavailable');
    return await admit(config, params.user as AdmittedUser, (params.profile ?? {}) as OidcClaims, context);
  } catch (error) {
    log.error('sign-in through the identity provider could not be checked', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    countOidcSignIn('unavailable');
    return refusedTo('OidcUnavailable');
  }
}
