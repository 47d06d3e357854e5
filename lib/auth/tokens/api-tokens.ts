// API tokens in the database: only the SHA-256 of each secret is kept. Every change to tokens
// goes through this module.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db } from '../../db/client';
import { engine } from '../../db/engine';
import { randomId } from '../../ids';
import { log } from '../../log';
import { TokenName } from '../../schemas/token';
import { shortCache } from '../../short-cache';
import { accountState } from '../accounts/state';
import { DEFAULT_TOKEN_SCOPES, ROLE_SCOPES, formatScopes, isRole, parseScopes, scopesWithin, type Scope } from '../scopes';
import { displayPrefix, generateApiToken, hashApiToken } from './format';
import { currentDate } from '../../shared/clock';

const DAY_MS = 24 * 60 * 60 * 1000;
// Recording every use would turn each read into a write; a minute's precision is plenty.
const LAST_USED_PRECISION_MS = 60 * 1000;

export type ApiTokenSummary = {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdById: string | null;
  /** The owner's email; null for a token the operator made without --user. */
  ownerEmail: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const summaryFields = {
  id: true,
  name: true,
  prefix: true,
  scopes: true,
  createdById: true,
  createdBy: { select: { email: true } },
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

type SummaryRow = Omit<ApiTokenSummary, 'scopes' | 'ownerEmail'> & { scopes: string; createdBy: { email: string } | null };

function summaryOf({ createdBy, scopes, ...row }: SummaryRow): ApiTokenSummary {
  return { ...row, scopes: parseScopes(scopes), ownerEmail: createdBy?.email ?? null };
}

/** A token asked for scopes its owner's role does not have, or for none. */
export class TokenScopeError extends Error {}

/** Makes a token, and its audit record in the same transaction. */
export async function createApiToken(
  options: { name: string; scopes?: readonly Scope[]; expiresInDays?: number; createdById?: string | null },
  context: ChangeContext,
): Promise<{ token: string; summary: ApiTokenSummary }> {
  const scopes = options.scopes ?? DEFAULT_TOKEN_SCOPES;
  if (scopes.length === 0) throw new TokenScopeError('A token needs at least one scope');
  if (options.createdById) {
    // A token never does more than its owner may (and is capped again at every use).
    const owner = await db().user.findUnique({ where: { id: options.createdById }, select: { role: true } });
    if (!owner) throw new TokenScopeError('The account this token would belong to does not exist');
    const role = isRole(owner.role) ? owner.role : 'staff';
    const beyond = scopes.filter((scope) => !ROLE_SCOPES[role].includes(scope));
    if (beyond.length > 0) throw new TokenScopeError(`A ${role} account's token cannot have ${beyond.join(', ')}`);
  }
  const token = generateApiToken();
  const data = {
    id: randomId('tok_'),
    // Callers check the name first, to say what is wrong with it; this holds for every caller.
    name: TokenName.parse(options.name),
    prefix: displayPrefix(token),
    hash: hashApiToken(token),
    scopes: formatScopes(scopes),
    createdById: options.createdById ?? null,
    expiresAt: options.expiresInDays ? new Date(Date.now() + options.expiresInDays * DAY_MS) : null,
  };
  const { id, name, prefix, createdById, expiresAt } = data;
  const after = { name, prefix, scopes: parseScopes(data.scopes), createdById, expiresAt };
  const [row] = await db().$transaction([
    db().apiToken.create({ data, select: summaryFields }),
    db().auditEvent.create({ data: auditRow({ action: 'token.created', target: { type: 'token', id }, after }, context), select: { seq: true } }),
  ]);
  const summary = summaryOf(row);
  // Never the token itself: the log names it by id.
  log.info('api token created', {
    tokenId: summary.id,
    name: summary.name,
    scopes: formatScopes(summary.scopes),
    createdById: summary.createdById,
    expiresAt: summary.expiresAt?.toISOString() ?? null,
  });
  return { token, summary };
}

/** Tokens, newest first: everyone's, or one account's (`createdById`). */
export async function listApiTokens(filter: { createdById?: string } = {}): Promise<ApiTokenSummary[]> {
  const rows = await db().apiToken.findMany({ where: filter, orderBy: { createdAt: 'desc' }, select: summaryFields });
  return rows.map(summaryOf);
}

/**
 * Revokes a token, with its audit record; false when there is no such token, or it was already
 * revoked. `createdById` limits it to one account's tokens (a staff member may revoke only their own).
 */
export async function revokeApiToken(id: string, context: ChangeContext, filter: { createdById?: string } = {}): Promise<boolean> {
  const revoked = await db().$transaction(async (tx) => {
    const { count } = await tx.apiToken.updateMany({
      where: { id, revokedAt: null, ...filter },
      data: { revokedAt: new Date() },
    });
    if (count === 1) await insertAuditRows(tx, [auditRow({ action: 'token.revoked', target: { type: 'token', id } }, context)]);
    return count === 1;
  });
  forgetCachedToken(id);
  const { actor } = context;
  if (revoked) log.info('api token revoked', { tokenId: id, revokedBy: 'id' in actor && actor.id ? actor.id : null });
  return revoked;
}

// Verified tokens, by hash (lib/short-cache.ts): TOKEN_CACHE_TTL_MS bounds how long a token
// revoked on another instance (or by the CLI) still works here; a revocation made through this
// process drops the entry at once. Unknown tokens are not kept: a token made a moment ago must
// work at once.
export const TOKEN_CACHE_TTL_MS = 500;

type TokenRecord = {
  id: string;
  createdById: string | null;
  /** Parsed once per read, not on every request. */
  scopes: Scope[];
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
};

const tokenCache = shortCache<TokenRecord | null>('api-token-cache', {
  ttlMs: TOKEN_CACHE_TTL_MS,
  maxEntries: 1000,
  keep: (record) => record !== null,
});

function forgetCachedToken(id: string): void {
  tokenCache.forgetWhere((record) => record?.id === id);
}

function lookUpToken(hash: string, now: number): Promise<TokenRecord | null> {
  return tokenCache.get(
    hash,
    async () => {
      const row = await db().apiToken.findUnique({
        where: { hash },
        select: { id: true, createdById: true, scopes: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
      });
      return row && { ...row, scopes: parseScopes(row.scopes) };
    },
    now,
  );
}

export type TokenCheck =
  | { status: 'valid'; tokenId: string; userId: string | null; scopes: Scope[] }
  | { status: 'unknown' | 'expired' | 'revoked' | 'owner_disabled' | 'owner_deleted' };

/** Looks a well-formed token up by its hash and says whether it may be used now, and for what. */
export async function checkApiToken(token: string, now = currentDate()): Promise<TokenCheck> {
  const record = await lookUpToken(hashApiToken(token), now.getTime());
  if (!record) return { status: 'unknown' };
  if (record.revokedAt) return { status: 'revoked' };
  if (record.expiresAt && record.expiresAt <= now) return { status: 'expired' };
  let scopes = record.scopes;
  if (record.createdById) {
    const owner = await accountState(record.createdById, now.getTime());
    // The database deletes an account's tokens with it; this also covers a row removed with
    // foreign keys off (an SQLite shell's default).
    if (!owner) return { status: 'owner_deleted' };
    if (owner.disabled) return { status: 'owner_disabled' };
    scopes = scopesWithin(scopes, owner.role);
  }
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    // Marked on the shared record first, so concurrent requests do not all write it.
    record.lastUsedAt = now;
    await engine().tokenUse.recordUse(record.id, now);
  }
  return { status: 'valid', tokenId: record.id, userId: record.createdById, scopes };
}
