// The identity provider as next-auth 4 runs it: its generic OAuth provider in OpenID Connect form
// (openid-client underneath). The authorization code flow with PKCE (S256), `state` and `nonce`,
// each kept in a cookie of next-auth's, sealed with AUTH_SECRET; the ID token the code is traded for
// is verified by openid-client: its signature against the provider's JWKS, `iss`, `aud` (this
// client), `exp` and `iat`, and the nonce. Who it then lets in is lib/auth/oidc/admission.ts's call.
import 'server-only';
import type { OAuthConfig } from 'next-auth/providers/oauth';
import { OIDC_PROVIDER_ID, type OidcConfig } from './config';
import { keptOidcEndpoints } from './discovery';

/** The claims the ID token carries, those this service reads. */
export type OidcClaims = { sub: string; email?: unknown; email_verified?: unknown; xms_edov?: unknown; name?: unknown; iss?: unknown };

const SCOPE = 'openid email profile';

/** next-auth's provider for `config`, on the endpoints discovery read (lib/http/oidc-sign-in.ts reads them before next-auth runs). */
export function oidcProvider(config: OidcConfig): OAuthConfig<OidcClaims> {
  const endpoints = keptOidcEndpoints(config);
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: 'oauth',
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    // With the endpoints named, next-auth builds openid-client's issuer from them and fetches nothing
    // but the token and the JWKS. Without (discovery not read yet: a refusal follows before next-auth
    // reaches the provider), it would read the document itself.
    ...(endpoints
      ? {
          issuer: endpoints.issuer,
          authorization: { url: endpoints.authorization, params: { scope: SCOPE } },
          token: endpoints.token,
          jwks_endpoint: endpoints.jwks,
          ...(endpoints.userinfo ? { userinfo: endpoints.userinfo } : {}),
        }
      : { wellKnown: `${config.issuer}/.well-known/openid-configuration`, authorization: { params: { scope: SCOPE } } }),
    idToken: true,
    checks: ['pkce', 'state', 'nonce'],
    // Only the ID token's claims: no userinfo request, so what is admitted is what was verified.
    profile: (claims) => ({ id: claims.sub, email: typeof claims.email === 'string' ? claims.email : null, name: typeof claims.name === 'string' ? claims.name : null }),
    // openid-client's default, written out: the ID token must be signed, with RS256 unless the
    // client's registration says otherwise.
    client: { token_endpoint_auth_method: 'client_secret_basic' },
    httpOptions: { timeout: 5000 },
  };
}
