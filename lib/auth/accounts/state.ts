// What every credential check needs to know about the account behind it: its role, whether it is
// disabled, and its session version. Read from the database through a short cache, so an API
// call costs no read of its own; that cache is what bounds how soon a change made elsewhere
// (another instance, the CLI) takes effect here, and every change made through this process
// drops the account's entry at once (lib/auth/accounts/changes.ts).
import 'server-only';
import { db } from '../../db/client';
import { shortCache } from '../../short-cache';
import { now as clockNow } from '../../shared/clock';
import { isRole, type Role } from '../scopes';

export type AccountState = { role: Role; disabled: boolean; sessionVersion: number };

// Together with the request itself this keeps "access ends on other instances within 1 s".
export const ACCOUNT_STATE_TTL_MS = 500;

const cache = shortCache<AccountState | null>('account-state-cache', { ttlMs: ACCOUNT_STATE_TTL_MS, maxEntries: 10_000 });

async function read(userId: string): Promise<AccountState | null> {
  const row = await db().user.findUnique({
    where: { id: userId },
    select: { role: true, disabledAt: true, sessionVersion: true },
  });
  if (!row) return null;
  // A role this version does not know grants nothing beyond staff.
  return { role: isRole(row.role) ? row.role : 'staff', disabled: row.disabledAt !== null, sessionVersion: row.sessionVersion };
}

/** The account's current state, or null when there is no such account (any more). */
export function accountState(userId: string, now = clockNow()): Promise<AccountState | null> {
  return cache.get(userId, () => read(userId), now);
}

/** Called by every change to an account made in this process: the next request sees it. */
export function forgetAccountState(userId: string): void {
  cache.forget(userId);
}
