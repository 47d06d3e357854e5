// The bearer verifier. Each kind of credential (API tokens, and the signed-in page's short-lived
// session token) is a verifier that recognises its own tokens; the first that claims a token decides.
import 'server-only';
import { checkApiToken } from './api-tokens';
import { ACCOUNT_DISABLED_MESSAGE, unauthorized, type CredentialVerifier, type Principal } from './credentials';
import { sessionTokenVerifier } from './session-token';
import { isWellFormedApiToken, looksLikeApiToken } from './format';

export const apiTokenVerifier: CredentialVerifier = {
  claims: looksLikeApiToken,
  async verify(token) {
    if (!isWellFormedApiToken(token)) throw unauthorized('invalid_token', 'The API token is malformed (checksum mismatch)');
    const check = await checkApiToken(token);
    switch (check.status) {
      case 'valid':
        return { kind: 'api_token', tokenId: check.tokenId, userId: check.userId, scopes: check.scopes };
      case 'expired':
        throw unauthorized('expired_token', 'The API token has expired');
      case 'revoked':
        throw unauthorized('revoked_token', 'The API token has been revoked');
      case 'owner_deleted':
        throw unauthorized('revoked_token', 'The API token has been revoked: its account no longer exists');
      case 'owner_disabled':
        throw unauthorized('account_disabled', ACCOUNT_DISABLED_MESSAGE);
      default:
        throw unauthorized('invalid_token', 'The API token is not known');
    }
  },
};

const verifiers: CredentialVerifier[] = [apiTokenVerifier, sessionTokenVerifier];

/** Lets another kind of credential be accepted beside API tokens. */
export function registerVerifier(verifier: CredentialVerifier): void {
  if (!verifiers.includes(verifier)) verifiers.push(verifier);
}

const BEARER = /^bearer +(\S+) *$/i;

export type { Principal };

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(request: Request): string | null {
  return BEARER.exec(request.headers.get('authorization') ?? '')?.[1] ?? null;
}

/** Who is calling, from `Authorization: Bearer <token>`; throws a 401 ApiError otherwise. */
export async function authenticate(request: Request): Promise<Principal> {
  if (!request.headers.get('authorization')?.trim()) throw unauthorized('missing_token', 'Missing bearer token: send Authorization: Bearer <token>');
  const token = bearerToken(request);
  if (!token) throw unauthorized('invalid_token', 'The Authorization header must be "Bearer <token>"');
  const verifier = verifiers.find((candidate) => candidate.claims(token));
  if (!verifier) throw unauthorized('invalid_token', 'The bearer token is not known');
  return verifier.verify(token);
}
