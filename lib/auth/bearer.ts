// The bearer verifier. Each kind of credential (API tokens now; the signed-in page's short-lived
// token later) is a verifier that recognises its own tokens; the first that claims a token decides.
import { ApiError, type ErrorKind } from '../http/errors';
import { checkApiToken } from './api-tokens';
import { isWellFormedApiToken, looksLikeApiToken } from './token-format';

export type Principal =
  | { kind: 'api_token'; tokenId: string; userId: string | null }
  | { kind: 'session'; userId: string };

export interface CredentialVerifier {
  /** Cheap shape test: does this token belong to this kind of credential? */
  claims(token: string): boolean;
  /** Resolves to who is calling, or throws an ApiError of kind invalid/expired/revoked_token. */
  verify(token: string): Promise<Principal>;
}

export const REALM = 'plants';

/** 401 with the RFC 6750 challenge; `error="invalid_token"` only when a token was presented. */
export function unauthorized(kind: ErrorKind, message: string): ApiError {
  const challenge =
    kind === 'missing_token'
      ? `Bearer realm="${REALM}"`
      : `Bearer realm="${REALM}", error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"`;
  return new ApiError(kind, message, { 'WWW-Authenticate': challenge });
}

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

const verifiers: CredentialVerifier[] = [apiTokenVerifier];

/** Lets another kind of credential be accepted beside API tokens. */
export function registerVerifier(verifier: CredentialVerifier): void {
  if (!verifiers.includes(verifier)) verifiers.push(verifier);
}

const BEARER = /^bearer +(\S+) *$/i;

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
