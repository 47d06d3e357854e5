// Sign-in through the store's OpenID Connect provider, as the settings configure it: on when
// OIDC_ISSUER is set (lib/settings refuses it without the client's id and secret, and without
// PUBLIC_URL, which the redirect URI registered at the provider is made of).
import 'server-only';
import { settings } from '../../settings';

export { OIDC_PROVIDER_ID } from '../sessions/next-auth-endpoints';

export type OidcConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in page calls the provider. */
  name: string;
  /** The email domains a first sign-in may make a staff account for (lower case); empty: none. */
  allowedDomains: readonly string[];
};

/** The provider's configuration, or null when sign-in through a provider is off. */
export function oidcConfig(): OidcConfig | null {
  const s = settings();
  if (!s.OIDC_ISSUER) return null;
  return {
    issuer: s.OIDC_ISSUER,
    clientId: s.OIDC_CLIENT_ID!,
    clientSecret: s.OIDC_CLIENT_SECRET!,
    name: s.OIDC_NAME,
    allowedDomains: s.OIDC_ALLOWED_DOMAINS,
  };
}

/** What the sign-in page needs to know: the provider's name, or null when there is none. */
export function oidcProviderName(): string | null {
  return oidcConfig()?.name ?? null;
}
