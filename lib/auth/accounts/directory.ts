// Staff accounts: an email, a role, a scrypt password hash (or none yet), a status. Making and
// listing them; the changes an admin or the account's owner makes are in accounts.ts.
import 'server-only';
import { z } from 'zod';
import { OPERATOR_COMMAND, type ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db } from '../../db/client';
import { randomId } from '../../ids';
import { log } from '../../log';
import { hashPassword } from '../passwords/hash';
import { issuePasswordLinkAndMail } from '../../mail/outbox';
import { wakeMailSender } from '../../mail/sender';
import { assertAcceptablePassword } from '../passwords/policy';
import { isRole, type Role } from '../scopes';

export const StaffEmail = z.email({ error: 'must be an email address' }).max(254).transform((email) => email.toLowerCase());

export type Account = {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  /** False until the person has set a password through their link (and again after a reset). */
  hasPassword: boolean;
  lastSignInAt: Date | null;
  createdAt: Date;
};

const accountFields = {
  id: true,
  email: true,
  role: true,
  disabledAt: true,
  passwordHash: true,
  lastSignInAt: true,
  createdAt: true,
} as const;

type AccountRow = { id: string; email: string; role: string; disabledAt: Date | null; passwordHash: string | null; lastSignInAt: Date | null; createdAt: Date };

export function accountOf(row: AccountRow): Account {
  return {
    id: row.id,
    email: row.email,
    role: isRole(row.role) ? row.role : 'staff',
    disabled: row.disabledAt !== null,
    hasPassword: row.passwordHash !== null,
    lastSignInAt: row.lastSignInAt,
    createdAt: row.createdAt,
  };
}

export function findUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
}

export async function findAccountByEmail(email: string): Promise<Account | null> {
  const row = await db().user.findUnique({ where: { email: email.trim().toLowerCase() }, select: accountFields });
  return row && accountOf(row);
}

export function countUsers(): Promise<number> {
  return db().user.count();
}

/** Every account, oldest first. */
export async function listAccounts(): Promise<Account[]> {
  const rows = await db().user.findMany({ orderBy: { createdAt: 'asc' }, select: accountFields });
  return rows.map(accountOf);
}

export class DuplicateEmailError extends Error {}

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';

/**
 * Makes an account. With a password (the operator CLI), it can sign in at once; without one (the
 * staff page), the answer carries a one-time set-password link, the only way in. The first
 * account ever made is an admin whatever was asked, since someone must be able to manage the rest;
 * after that the role defaults to staff.
 */
export async function createUser(options: { email: string; role?: Role; password?: string; by?: ChangeContext }): Promise<{
  account: Account;
  /** The secret of the set-password link, when no password was given. */
  passwordLink: string | null;
}> {
  if (options.password !== undefined) await assertAcceptablePassword(options.password);
  const passwordHash = options.password === undefined ? null : await hashPassword(options.password);
  const email = options.email.trim().toLowerCase();
  const by = options.by ?? OPERATOR_COMMAND;
  try {
    const created = await db().$transaction(async (tx) => {
      // The write comes first: on SQLite it takes the write lock at once. Counting first would
      // open a read that must later upgrade to a write, and two CLI processes doing that at once
      // wait on each other until the transaction times out.
      let row = await tx.user.create({
        data: { id: randomId('usr_'), email, passwordHash, role: options.role ?? 'staff' },
        select: accountFields,
      });
      if (row.role !== 'admin' && (await tx.user.count()) === 1) {
        row = await tx.user.update({ where: { id: row.id }, data: { role: 'admin' }, select: accountFields });
      }
      const after = { email: row.email, role: row.role };
      await insertAuditRows(tx, [auditRow({ action: 'staff.created', target: { type: 'staff', id: row.id }, after }, by)]);
      // With email set up, the link is also sent to the address (lib/mail): the invitation.
      const passwordLink = passwordHash === null ? (await issuePasswordLinkAndMail(tx, row.id, 'invitation', by)).secret : null;
      return { account: accountOf(row), passwordLink };
    });
    if (created.passwordLink) wakeMailSender();
    const { actor } = by;
    log.info('account changed', { action: 'create', accountId: created.account.id, role: created.account.role, by: 'id' in actor && actor.id ? actor.id : actor.name });
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) throw new DuplicateEmailError(`An account with the email ${email} already exists`);
    throw error;
  }
}
