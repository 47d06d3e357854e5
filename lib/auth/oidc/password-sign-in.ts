// "Password sign-in for admins only": an admin's setting, kept in the database (StoreSetting
// `password_sign_in`), so every instance reads the same. While it is on, the Credentials provider
// refuses every account but an admin's once its password is right (lib/auth/sessions/sign-in.ts),
// the sign-in page shows the identity provider's button first and says why, and a staff member's
// session made with a password ends (lib/auth/sessions/rules.ts). It can be turned on only while a
// provider is configured: otherwise no one but the admins could sign in at all. Read through a short
// cache, as an account's state is, so a change made on another instance counts within a second.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db } from '../../db/client';
import { log } from '../../log';
import { shortCache } from '../../short-cache';
import { now as clockNow } from '../../shared/clock';
import { ACCOUNT_STATE_TTL_MS } from '../accounts/state';
import { AccountError } from '../accounts/changes';
import { oidcConfig } from './config';

const KEY = 'password_sign_in';
type PasswordSignIn = 'everyone' | 'admins';

const cache = shortCache<PasswordSignIn>('password-sign-in-setting', { ttlMs: ACCOUNT_STATE_TTL_MS, maxEntries: 1 });

async function read(): Promise<PasswordSignIn> {
  const row = await db().storeSetting.findUnique({ where: { key: KEY }, select: { value: true } });
  return row && JSON.parse(row.value) === 'admins' ? 'admins' : 'everyone';
}

/** Whether password sign-in is for admins only now. */
export async function passwordSignInAdminsOnly(now = clockNow()): Promise<boolean> {
  return (await cache.get(KEY, read, now)) === 'admins';
}

/** Turns password sign-in for admins only on or off, with its audit record in the same transaction. */
export async function setPasswordSignInAdminsOnly(adminsOnly: boolean, by: ChangeContext): Promise<void> {
  if (adminsOnly && !oidcConfig()) throw new AccountError('Sign-in through an identity provider is not configured (OIDC_ISSUER): staff would have no way to sign in.');
  const value: PasswordSignIn = adminsOnly ? 'admins' : 'everyone';
  const json = JSON.stringify(value);
  const changed = await db().$transaction(async (tx) => {
    // The write first: on SQLite it takes the write lock at once (as createUser explains).
    const { count } = await tx.storeSetting.updateMany({ where: { key: KEY, value: { not: json } }, data: { value: json } });
    let moved = count === 1;
    if (!moved && !(await tx.storeSetting.findUnique({ where: { key: KEY }, select: { key: true } }))) {
      // Never set: it was the default, everyone.
      await tx.storeSetting.create({ data: { key: KEY, value: json } });
      moved = value !== 'everyone';
    }
    if (moved) {
      const was: PasswordSignIn = value === 'admins' ? 'everyone' : 'admins';
      await insertAuditRows(tx, [auditRow({ action: 'settings.changed', target: { type: 'setting', id: KEY }, before: { passwordSignIn: was }, after: { passwordSignIn: value } }, by)]);
    }
    return moved;
  });
  cache.forget(KEY);
  if (changed) log.info('setting changed', { setting: KEY, value, by: 'id' in by.actor && by.actor.id ? by.actor.id : by.actor.name });
}
