// Changes to staff accounts, by an admin (disable, enable, role, password reset) or by the
// account's owner (password change, signing out). Each one that takes access away bumps the
// account's session version, which ends every session cookie and page token it holds, and drops
// this process's cached state of the account, so the next request here already sees it; other
// instances see it within ACCOUNT_STATE_TTL_MS. Each change writes its audit record in its own
// transaction. Disabling an account and demoting an admin could leave no active admin: each is one
// guarded statement of the engine's (the AccountStore of lib/db/stores.ts), which two admins
// removing each other at the same moment cannot both pass.
import 'server-only';
import type { AuditAction } from '../../audit/actions';
import type { ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db, type Transaction } from '../../db/client';
import { engine } from '../../db/engine';
import { log } from '../../log';
import { forgetAccountState } from './state';
import { claimLoginAttempt, clearLoginAttempts } from '../passwords/login-throttle';
import { hashPassword, verifyPassword } from '../passwords/hash';
import { cancelWaitingMail, issuePasswordLinkAndMail } from '../../mail/outbox';
import { wakeMailSender } from '../../mail/sender';
import { assertAcceptablePassword } from '../passwords/policy';
import type { Role } from '../scopes';

/** A change that cannot be made, with the reason in words a person can act on. */
export class AccountError extends Error {}

/** Who made a change: a staff member (an admin, or the account's owner), or the operator's CLI. */
export type ChangedBy = ChangeContext;

function changed(action: string, accountId: string, by: ChangedBy, fields: Record<string, string> = {}): void {
  forgetAccountState(accountId);
  log.info('account changed', { action, accountId, by: 'id' in by.actor && by.actor.id ? by.actor.id : by.actor.name, ...fields });
}

/** The audit record of a change to account `id`, written inside the change's transaction. */
function record(tx: Transaction, action: AuditAction, id: string, by: ChangedBy, fields: { before?: object; after?: object } = {}) {
  return insertAuditRows(tx, [auditRow({ action, target: { type: 'staff', id }, ...fields }, by)]);
}

async function explainUnchanged(id: string, unchangedWhen: (row: { role: string; disabledAt: Date | null }) => string | null) {
  const row = await db().user.findUnique({ where: { id }, select: { email: true, role: true, disabledAt: true } });
  if (!row) return new AccountError('There is no such account (any more).');
  return new AccountError(unchangedWhen(row) ?? `${row.email} is the last active admin: make someone else an admin first.`);
}

/**
 * Disables an account: it cannot sign in, its sessions, page tokens and API tokens stop working,
 * and its set-password links end (a link would otherwise set a password that works again once the
 * account is enabled), and so do the messages still waiting to carry them (lib/mail/outbox.ts).
 */
export async function disableAccount(id: string, by: ChangedBy): Promise<void> {
  const count = await engine().accounts.disableUnlessLastAdmin(id, new Date(), async (tx) => {
    await tx.passwordLink.deleteMany({ where: { userId: id } });
    await cancelWaitingMail(tx, id);
    await record(tx, 'staff.disabled', id, by);
  });
  if (count !== 1) throw await explainUnchanged(id, (row) => (row.disabledAt ? 'That account is already disabled.' : null));
  changed('disable', id, by);
}

/** Enables a disabled account: it can sign in again, and its API tokens work again. */
export async function enableAccount(id: string, by: ChangedBy): Promise<void> {
  const count = await db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id, disabledAt: { not: null } }, data: { disabledAt: null } });
    if (count === 1) await record(tx, 'staff.enabled', id, by);
    return count;
  });
  if (count !== 1) throw await explainUnchanged(id, () => 'That account is not disabled.');
  changed('enable', id, by);
}

/** Changes an account's role. Its sessions end, so its pages and page tokens pick up the new role. */
export async function setAccountRole(id: string, role: Role, by: ChangedBy): Promise<void> {
  const recorded = (tx: Transaction) =>
    record(tx, 'staff.role_changed', id, by, { before: { role: role === 'admin' ? 'staff' : 'admin' }, after: { role } });
  const count =
    role === 'admin'
      ? await db().$transaction(async (tx) => {
          const { count } = await tx.user.updateMany({ where: { id, role: { not: 'admin' } }, data: { role, sessionVersion: { increment: 1 } } });
          if (count === 1) await recorded(tx);
          return count;
        })
      : await engine().accounts.setRoleUnlessLastAdmin(id, role, recorded);
  if (count !== 1) throw await explainUnchanged(id, (row) => (row.role === role ? `That account is already ${role === 'admin' ? 'an admin' : 'staff'}.` : null));
  changed('set-role', id, by, { role });
}

/**
 * Resets an account's password: the old one stops working, every session ends, and the answer is
 * the secret of a new one-time link (older links end) for the admin to hand over, and whether it was
 * mailed to the account instead (email set up, and the account enabled).
 */
export async function resetPassword(id: string, by: ChangedBy): Promise<{ secret: string; mailed: boolean }> {
  const link = await db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id }, data: { passwordHash: null, sessionVersion: { increment: 1 } } });
    if (count !== 1) return null;
    await record(tx, 'staff.password_reset', id, by);
    // With email set up, the new link is also sent to the account's address (lib/mail).
    return issuePasswordLinkAndMail(tx, id, 'password_reset', by);
  });
  if (link === null) throw new AccountError('There is no such account (any more).');
  if (link.mailed) wakeMailSender();
  changed('reset-password', id, by);
  return link;
}

/** Ends every session and page token of the account: sign-out, and "Sign out everywhere". */
export async function endSessions(id: string, reason: 'sign-out' | 'sign-out-everywhere', by: ChangedBy): Promise<void> {
  const count = await db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id }, data: { sessionVersion: { increment: 1 } } });
    if (count === 1) await record(tx, reason === 'sign-out' ? 'staff.signed_out' : 'staff.signed_out_everywhere', id, by);
    return count;
  });
  if (count === 1) changed(reason, id, by);
}

/**
 * Notes a successful sign-in, with its audit record (`after`: how, for a sign-in through the
 * identity provider); the session version the new session is to carry.
 */
export async function recordSignIn(id: string, by: ChangedBy, at = new Date(), after?: object): Promise<number> {
  return db().$transaction(async (tx) => {
    const { sessionVersion } = await tx.user.update({ where: { id }, data: { lastSignInAt: at }, select: { sessionVersion: true } });
    await record(tx, 'staff.signed_in', id, by, after ? { after } : {});
    return sessionVersion;
  });
}

/**
 * The owner changes their password. The current one must be right (wrong guesses count towards
 * the same throttle as sign-in, so a borrowed session cannot be used to guess it faster), the new
 * one must pass the password rules, and every session of the account ends, this one too.
 */
export async function changePassword(id: string, current: string, next: string, by: ChangedBy): Promise<void> {
  await assertAcceptablePassword(next);
  const user = await db().user.findUnique({ where: { id }, select: { email: true, passwordHash: true } });
  if (!user?.passwordHash) throw new AccountError('There is no such account (any more).');
  // Claimed before the check, as sign-in claims its attempts (lib/auth/passwords/login-throttle.ts).
  const claim = await claimLoginAttempt(user.email);
  if (!claim.allowed) throw new AccountError(`Too many wrong passwords for this account. Wait ${claim.retryAfterSeconds} s and try again.`);
  if (!(await verifyPassword(current, user.passwordHash))) throw new AccountError('The current password is not right.');
  await clearLoginAttempts(user.email);
  const passwordHash = await hashPassword(next);
  // Only over the hash just checked: a reset made meanwhile by an admin wins.
  const count = await db().$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({
      where: { id, passwordHash: user.passwordHash },
      data: { passwordHash, sessionVersion: { increment: 1 } },
    });
    if (count === 1) await record(tx, 'staff.password_changed', id, by);
    return count;
  });
  if (count !== 1) throw new AccountError('Your password was changed or reset meanwhile; sign in again.');
  changed('change-password', id, by);
}
