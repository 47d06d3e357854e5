// What every kind of bearer credential shares: who a caller is, and how a refusal is phrased.
import 'server-only';
import { ApiError, type ErrorKind } from '../../errors';
import type { Scope } from '../scopes';

/** Who is calling, and what they may do: the credential's scopes, capped by its account's role. */
export type Principal =
  | { kind: 'api_token'; tokenId: string; userId: string | null; scopes: readonly Scope[] }
  | { kind: 'session'; userId: string; scopes: readonly Scope[] };

export interface CredentialVerifier {
  /** Cheap shape test: does this token belong to this kind of credential? */
  claims(token: string): boolean;
  /** Resolves to who is calling, or throws an ApiError of kind invalid/expired/revoked_token. */
  verify(token: string): Promise<Principal>;
}

export const REALM = 'plants';

export const ACCOUNT_DISABLED_MESSAGE = 'This account has been disabled: its tokens and sessions do not work until an admin enables it';

/** 401 with the RFC 6750 challenge; `error="invalid_token"` only when a token was presented. */
export function unauthorized(kind: ErrorKind, message: string): ApiError {
  const challenge =
    kind === 'missing_token'
      ? `Bearer realm="${REALM}"`
      : `Bearer realm="${REALM}", error="invalid_token", error_description="${message.replace(/["\\]/g, '')}"`;
  return new ApiError(kind, message, { 'WWW-Authenticate': challenge });
}

/** 403 with the RFC 6750 §3.1 challenge naming the scope the operation needs. */
export function insufficientScope(scope: Scope): ApiError {
  return new ApiError('insufficient_scope', `This token lacks the scope ${scope}, which this operation needs`, {
    'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", scope="${scope}"`,
  });
}
