// The bearer verifier. Each kind of credential (API tokens, and the signed-in page's short-lived
// session token) is a verifier that recognises its own tokens; the first that claims a token decides.
import { checkApiToken } from './api-tokens';
import { unauthorized, type CredentialVerifier, type Principal } from './credentials';
import { sessionTokenVerifier } from './session-token';
import { isWellFormedApiToken, looksLikeApiToken } from './token-format';

export const apiTokenVerifier: CredentialVerifier = {
  claims: looksLikeApiToken,
  async verify(token) {
    if (!isWellFormedApiToken(token)) throw unauthorized('invalid_token', 'The API token is malformed (checksum mismatch)');
    const check = await checkApiToken(token);
    switch (check.status) {
      case 'valid':
        return { kind: 'api_token', tokenId: check.tokenId, userId: check.userId };
      case 'expired':
        throw unauthorized('expired_token', 'The API token has expired');
      case 'revoked':
        throw unauthorized('revoked_token', 'The API token has been revoked');
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

/** Who is calling, from `Authorization: Bearer <token>`; throws a 401 ApiError otherwise. */
export async function authenticate(request: Request): Promise<Principal> {
  const header = request.headers.get('authorization');
  if (!header?.trim()) throw unauthorized('missing_token', 'Missing bearer token: send Authorization: Bearer <token>');
  const token = BEARER.exec(header)?.[1];
  if (!token) throw unauthorized('invalid_token', 'The Authorization header must be "Bearer <token>"');
  const verifier = verifiers.find((candidate) => candidate.claims(token));
  if (!verifier) throw unauthorized('invalid_token', 'The bearer token is not known');
  return verifier.verify(token);
}
