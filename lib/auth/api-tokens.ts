// API tokens in the database: only the SHA-256 of each secret is kept.
import { db } from '../db/client';
import { randomId } from '../ids';
import { displayPrefix, generateApiToken, hashApiToken } from './token-format';

const DAY_MS = 24 * 60 * 60 * 1000;
// Recording every use would turn each read into a write; a minute's precision is plenty.
const LAST_USED_PRECISION_MS = 60 * 1000;

export type ApiTokenSummary = {
  id: string;
  name: string;
  prefix: string;
  createdById: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const summaryFields = {
  id: true,
  name: true,
  prefix: true,
  createdById: true,
  createdAt: true,
  expiresAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

export async function createApiToken(options: {
  name: string;
  expiresInDays?: number;
  createdById?: string | null;
}): Promise<{ token: string; summary: ApiTokenSummary }> {
  const token = generateApiToken();
  const summary = await db().apiToken.create({
    data: {
      id: randomId('tok_'),
      name: options.name,
      prefix: displayPrefix(token),
      hash: hashApiToken(token),
      createdById: options.createdById ?? null,
      expiresAt: options.expiresInDays ? new Date(Date.now() + options.expiresInDays * DAY_MS) : null,
    },
    select: summaryFields,
  });
  return { token, summary };
}

export function listApiTokens(filter: { createdById?: string } = {}): Promise<ApiTokenSummary[]> {
  return db().apiToken.findMany({ where: filter, orderBy: { createdAt: 'desc' }, select: summaryFields });
}

/** Revokes a token; false when there is no such token, or it was already revoked. */
export async function revokeApiToken(id: string, filter: { createdById?: string } = {}): Promise<boolean> {
  const { count } = await db().apiToken.updateMany({
    where: { id, revokedAt: null, ...filter },
    data: { revokedAt: new Date() },
  });
  return count === 1;
}

export type TokenCheck =
  | { status: 'valid'; tokenId: string; userId: string | null }
  | { status: 'unknown' | 'expired' | 'revoked' };

/** Looks a well-formed token up by its hash and says whether it may be used now. */
export async function checkApiToken(token: string, now = new Date()): Promise<TokenCheck> {
  const record = await db().apiToken.findUnique({
    where: { hash: hashApiToken(token) },
    select: { id: true, createdById: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
  });
  if (!record) return { status: 'unknown' };
  if (record.revokedAt) return { status: 'revoked' };
  if (record.expiresAt && record.expiresAt <= now) return { status: 'expired' };
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    await db().apiToken.update({ where: { id: record.id }, data: { lastUsedAt: now } });
  }
  return { status: 'valid', tokenId: record.id, userId: record.createdById };
}
