// A real OpenID provider on loopback, for the sign-in tests: the `oidc-provider` package (an OpenID
// Certified implementation), with its own development sign-in and consent pages (devInteractions).
// Whatever is typed as the login is the account: its `sub` and its email, verified, unless it starts
// with `unverified:` (then `email_verified` is false). The ID token carries the email claims, as
// Google's, Entra ID's, Okta's and Keycloak's do. `tamper` makes the token endpoint hand out a
// forged ID token instead of the one the provider signed: signed with a key of nobody's (under the
// provider's key id), for another audience, expired, or without its nonce (each re-signed with the
// provider's own key, so only that one claim is wrong).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, type CryptoKey } from 'jose';
import Provider from 'oidc-provider';

export const TEST_CLIENT_ID = 'plant-store';
export const TEST_CLIENT_SECRET = 'plant-store-test-client-secret-0123456789';
export const UNVERIFIED = 'unverified:';

export type Tamper = 'wrong-signature' | 'wrong-audience' | 'expired' | 'no-nonce';

export type TestProvider = {
  issuer: string;
  /** Forges the next ID tokens the token endpoint hands out; null: the provider's own. */
  tamper: Tamper | null;
  /** ID tokens the token endpoint has handed out. */
  tokensIssued: number;
  stop(): Promise<void>;
};

const KEY_ID = 'test-signing-key';

/** What the provider says of the account `login`. */
function claimsOf(login: string) {
  const unverified = login.startsWith(UNVERIFIED);
  const email = unverified ? login.slice(UNVERIFIED.length) : login;
  return { sub: login, email, email_verified: !unverified, name: email.split('@')[0] };
}

async function forged(idToken: string, tamper: Tamper, key: CryptoKey, strangerKey: CryptoKey): Promise<string> {
  const claims: Record<string, unknown> = { ...decodeJwt(idToken) };
  const now = Math.floor(Date.now() / 1000);
  if (tamper === 'wrong-audience') claims.aud = 'another-application';
  if (tamper === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 });
  if (tamper === 'no-nonce') delete claims.nonce;
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' }).sign(tamper === 'wrong-signature' ? strangerKey : key);
}

/** Starts the provider on `port` (0: any free one) of 127.0.0.1, for a client whose redirect URIs are `redirectUris`. */
export async function startTestProvider(options: { redirectUris: string[]; port?: number }): Promise<TestProvider> {
  const signing = await generateKeyPair('RS256', { extractable: true });
  const stranger = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(signing.privateKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };

  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT_ID,
        client_secret: TEST_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The scope's claims in the ID token too, not only at userinfo.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    findAccount: (_ctx, id) => ({ accountId: id, claims: () => claimsOf(id) }),
  });
  provider.on('server_error', (_ctx, error) => process.stderr.write(`test provider: ${error.stack ?? error.message}\n`));

  const state: TestProvider = {
    issuer,
    tamper: null,
    tokensIssued: 0,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || ctx.status !== 200) return;
    const body = ctx.body as { id_token?: string } | undefined;
    if (!body?.id_token) return;
    state.tokensIssued++;
    if (state.tamper) body.id_token = await forged(body.id_token, state.tamper, signing.privateKey, stranger.privateKey);
  });
  server.on('request', provider.callback());
  return state;
}
