// What every kind of bearer credential shares: who a caller is, and how a refusal is phrased.
import { ApiError, type ErrorKind } from '../http/errors';

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
