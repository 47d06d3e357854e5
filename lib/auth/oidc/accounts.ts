// The staff account a first sign-in through the identity provider makes: role staff, no password
// (the provider is its way in; an admin can still send it a set-password link), with its audit
// records in the same transaction: `staff.created` (by the person, through the provider) and
// `staff.signed_in`. Never the store's first admin: unlike createUser, it makes no one an admin.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db } from '../../db/client';
import { randomId } from '../../ids';
import { log } from '../../log';

const isUniqueViolation = (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';

/**
 * Makes the account of `email` (lower case) and signs it in: its id and session version, or null
 * when an account with that email was made meanwhile (a sign-in in another tab), which the caller
 * then signs in to as to any existing one.
 */
export async function createProviderAccount(email: string, issuer: string, context: Omit<ChangeContext, 'actor'>, at = new Date()): Promise<{ id: string; sessionVersion: number } | null> {
  const id = randomId('usr_');
  const by: ChangeContext = { ...context, actor: { type: 'staff', id, name: email } };
  try {
    const created = await db().$transaction(async (tx) => {
      const row = await tx.user.create({ data: { id, email, role: 'staff', passwordHash: null, lastSignInAt: at }, select: { id: true, sessionVersion: true } });
      await insertAuditRows(tx, [
        auditRow({ action: 'staff.created', target: { type: 'staff', id }, after: { email, role: 'staff', via: 'oidc', issuer } }, by, at),
        auditRow({ action: 'staff.signed_in', target: { type: 'staff', id }, after: { method: 'oidc' } }, by, at),
      ]);
      return row;
    });
    log.info('account changed', { action: 'create', accountId: id, role: 'staff', by: 'oidc' });
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
