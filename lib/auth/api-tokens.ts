// API tokens in the database: only the SHA-256 of each secret is kept.
import { db, dbEngine } from '../db/client';
import { prepared, toSqliteTime, whenNotBusy } from '../db/sqlite-connection';
import { randomId } from '../ids';
import { log } from '../log';
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
  forgetCachedToken(id);
  return count === 1;
}

// Verified tokens, by hash, so a busy client costs no database read per request. An entry lives
// TOKEN_CACHE_TTL_MS: that bounds how long a token revoked on another instance (or by the CLI)
// still works here; a revocation made through this process drops the entry at once.
export const TOKEN_CACHE_TTL_MS = 500;
const TOKEN_CACHE_MAX_ENTRIES = 1000;

type TokenRecord = { id: string; createdById: string | null; expiresAt: Date | null; revokedAt: Date | null; lastUsedAt: Date | null };
type CachedToken = { fetchedAt: number; record: Promise<TokenRecord | null> };

// On globalThis: Next may evaluate this module once per route bundle, and a revocation made by a
// server action must reach the cache the API routes read.
const shared = globalThis as unknown as { plantStoreTokenCache?: Map<string, CachedToken> };
const tokenCache = (shared.plantStoreTokenCache ??= new Map<string, CachedToken>());

function forgetCachedToken(id: string): void {
  for (const [hash, entry] of tokenCache) {
    void entry.record.then((record) => {
      if (record?.id === id && tokenCache.get(hash) === entry) tokenCache.delete(hash);
    });
  }
}

function lookUpToken(hash: string, now: number): Promise<TokenRecord | null> {
  const cached = tokenCache.get(hash);
  if (cached && now - cached.fetchedAt < TOKEN_CACHE_TTL_MS) return cached.record;

  // Concurrent requests with the same token share one read.
  const record = db().apiToken.findUnique({
    where: { hash },
    select: { id: true, createdById: true, expiresAt: true, revokedAt: true, lastUsedAt: true },
  });
  const entry: CachedToken = { fetchedAt: now, record };
  tokenCache.delete(hash);
  if (tokenCache.size >= TOKEN_CACHE_MAX_ENTRIES) tokenCache.delete(tokenCache.keys().next().value!);
  tokenCache.set(hash, entry);
  // Unknown tokens and failed reads are not kept: a token made a moment ago must work at once.
  const drop = () => void (tokenCache.get(hash) === entry && tokenCache.delete(hash));
  record.then((found) => found ?? drop(), drop);
  return record;
}

export type TokenCheck =
  | { status: 'valid'; tokenId: string; userId: string | null }
  | { status: 'unknown' | 'expired' | 'revoked' };

/** Looks a well-formed token up by its hash and says whether it may be used now. */
export async function checkApiToken(token: string, now = new Date()): Promise<TokenCheck> {
  const record = await lookUpToken(hashApiToken(token), now.getTime());
  if (!record) return { status: 'unknown' };
  if (record.revokedAt) return { status: 'revoked' };
  if (record.expiresAt && record.expiresAt <= now) return { status: 'expired' };
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
    // Marked on the shared record first, so concurrent requests do not all write it.
    record.lastUsedAt = now;
    await recordTokenUse(record.id, now);
  }
  return { status: 'valid', tokenId: record.id, userId: record.createdById };
}

/**
 * Notes when a token was last used. On SQLite this runs at once on the API's own connection
 * (lib/db/sqlite-connection.ts); if another process holds the file, it is retried in the
 * background: a minute-precise note must never hold a request up, nor stall the process as
 * Prisma's blocking wait would.
 */
async function recordTokenUse(id: string, at: Date): Promise<void> {
  if (dbEngine() === 'postgresql') {
    await db().apiToken.update({ where: { id }, data: { lastUsedAt: at } });
    return;
  }
  whenNotBusy(() => prepared<[string, string]>('UPDATE "ApiToken" SET "lastUsedAt" = ? WHERE "id" = ?').run(toSqliteTime(at), id)).catch(
    (error: unknown) => log.warn('could not record a token use', { tokenId: id, error: error instanceof Error ? error.message : String(error) }),
  );
}
