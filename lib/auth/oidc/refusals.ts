// Why a sign-in through the identity provider did not happen, as the sign-in page is told: the
// server sends the browser to /login?error=<code>, and the page says it in words. Browser-safe on
// purpose (components/oidc-sign-in.tsx reads it).

export const OIDC_REFUSALS = {
  /** The provider answered the callback with an error (the person cancelled, or it refused them). */
  OidcProviderRefused: (provider: string) => `${provider} did not sign you in. Try again, or ask your IT team if it keeps refusing.`,
  /** The provider did not say the email address was verified. */
  OidcEmailNotVerified: (provider: string) => `${provider} has not verified your email address, so it cannot sign you in here. Verify it there first.`,
  /** No account has the email, and its domain may not make one. */
  OidcDomainNotAllowed: () => 'There is no staff account for this email, and its domain may not make one. Ask an admin to add you.',
  OidcAccountDisabled: () => 'This account is disabled. Ask an admin to enable it.',
  /**
   * The answer did not belong to this browser's sign-in (state, nonce or PKCE did not match), or
   * its ID token could not be verified: a link opened twice, a sign-in started in another tab, or
   * a forged answer.
   */
  OidcTryAgain: (provider: string) => `The answer from ${provider} did not match this sign-in, so it was refused. Start again with the button.`,
  /** Too many sign-ins from this network this minute (the per-address allowance). */
  OidcTooManyAttempts: () => 'Too many sign-in attempts from your network. Wait a minute and try again.',
  /** The provider could not be reached or answered something unusable; the detail is in the server's log. */
  OidcUnavailable: (provider: string) => `Signing in with ${provider} is not possible right now. Try again in a moment.`,
} as const;

export type OidcRefusal = keyof typeof OIDC_REFUSALS;

export function isOidcRefusal(code: string | null | undefined): code is OidcRefusal {
  return typeof code === 'string' && Object.hasOwn(OIDC_REFUSALS, code);
}

/** The words the sign-in page shows for `code`, naming the provider as `provider`. */
export function oidcRefusalText(code: OidcRefusal, provider: string): string {
  return OIDC_REFUSALS[code](provider);
}

/** Credentials sign-in refused because password sign-in is for admins only (lib/auth/oidc/password-sign-in.ts). */
export const PASSWORD_SIGN_IN_ADMINS_ONLY = 'PasswordSignInAdminsOnly';
