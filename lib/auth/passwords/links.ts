// One-time links to set a password: how a new account gets in, and how an admin's reset works
// (the admin hands the link over, or with email set up it is mailed: lib/mail/outbox.ts). The secret is 32 random bytes and
// only its SHA-256 is stored, like an API token's. A link works once, for 24 hours, and making a
// new one for an account ends the older ones. It travels in the URL's fragment
// (/set-password#<secret>), which browsers never send to a server: it stays out of access logs,
// proxies and Referer headers. A link works only while its account is enabled, and disabling an
// account ends its links (lib/auth/accounts/changes.ts). A link's lifetime is made and checked by
// the process's clock (lib/shared/clock.ts), which the mailed link's issuing reads too.
//
// Setting a password is open to anyone who holds a link, so its costly part, the hash, comes last:
// the client address's allowance is counted first, then the link is looked up by the hash of its
// secret, and only a usable link's password is checked and hashed (lib/auth/passwords/admission.ts).
import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import type { ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db, type Transaction } from '../../db/client';
import { randomId } from '../../ids';
import { forgetAccountState } from '../accounts/state';
import { currentDate } from '../../shared/clock';
import { hashPassword } from './hash';
import { admitPasswordAttempt } from './admission';
import { PASSWORD_LINK_MESSAGES, SECRET_SHAPE, type PasswordLinkStatus } from './link-shape';
import { assertAcceptablePassword } from './policy';

export const PASSWORD_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const SET_PASSWORD_PATH = '/set-password';

const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The path to hand over; the page builds the full address from the origin the admin is on. */
export function passwordLinkPath(secret: string): string {
  return `${SET_PASSWORD_PATH}#${secret}`;
}

/** Makes the account's one valid link (inside the caller's transaction) and returns its secret. */
export async function issuePasswordLink(tx: Transaction, userId: string, now = currentDate()): Promise<string> {
  const secret = randomBytes(32).toString('base64url');
  await tx.passwordLink.deleteMany({ where: { userId } });
  await tx.passwordLink.create({
    data: { id: randomId('pwl_'), userId, hash: hashOf(secret), createdAt: now, expiresAt: new Date(now.getTime() + PASSWORD_LINK_LIFETIME_MS) },
  });
  return secret;
}

/** Whether a link can still be used, and for which account. */
export async function inspectPasswordLink(secret: string, now = currentDate()): Promise<{ status: PasswordLinkStatus; email?: string }> {
  if (!SECRET_SHAPE.test(secret)) return { status: 'invalid' };
  const link = await db().passwordLink.findUnique({
    where: { hash: hashOf(secret) },
    select: { usedAt: true, expiresAt: true, user: { select: { email: true, disabledAt: true } } },
  });
  if (!link) return { status: 'invalid' };
  if (link.usedAt) return { status: 'used' };
  if (link.expiresAt <= now) return { status: 'expired' };
  if (link.user.disabledAt) return { status: 'disabled' };
  return { status: 'valid', email: link.user.email };
}

export class PasswordLinkError extends Error {
  constructor(readonly status: Exclude<PasswordLinkStatus, 'valid'>) {
    super(PASSWORD_LINK_MESSAGES[status]);
  }
}

/**
 * Sets the account's password through a link. The link is claimed by one conditional update
 * (unused, unexpired and its account enabled, or nothing changes), so of two uses racing, exactly
 * one wins. Every session the account had ends. Throws PasswordLinkError when the link cannot be
 * used, PasswordRuleError for a weak password (the link stays usable), and the ApiErrors of
 * admission (too many attempts from the address, hashing busy).
 */
export async function setPasswordWithLink(
  secret: string,
  password: string,
  request: Pick<ChangeContext, 'requestId' | 'clientAddress'> = {},
  now = currentDate(),
): Promise<{ email: string }> {
  if (!SECRET_SHAPE.test(secret)) throw new PasswordLinkError('invalid');
  const attempt = admitPasswordAttempt(request.clientAddress);
  // Cheap checks first: a link that cannot be used costs one indexed read, never a hash.
  const { status } = await inspectPasswordLink(secret, now);
  if (status !== 'valid') throw new PasswordLinkError(status);
  await assertAcceptablePassword(password);
  // Hashed before the transaction: scrypt takes a while, and a write lock should not wait on it.
  const passwordHash = await hashPassword(password);
  const hash = hashOf(secret);
  const user = await db().$transaction(async (tx) => {
    const { count } = await tx.passwordLink.updateMany({
      where: { hash, usedAt: null, expiresAt: { gt: now }, user: { disabledAt: null } },
      data: { usedAt: now },
    });
    if (count !== 1) return null;
    const { userId } = await tx.passwordLink.findUniqueOrThrow({ where: { hash }, select: { userId: true } });
    const updated = await tx.user.update({
      where: { id: userId },
      data: { passwordHash, sessionVersion: { increment: 1 } },
      select: { id: true, email: true },
    });
    // Whoever holds the link acts as the account it was made for.
    const actor = { type: 'staff' as const, id: updated.id, name: updated.email };
    await insertAuditRows(tx, [auditRow({ action: 'staff.password_set', target: { type: 'staff', id: updated.id } }, { actor, ...request })]);
    return updated;
  });
  if (!user) {
    const { status } = await inspectPasswordLink(secret, now);
    throw new PasswordLinkError(status === 'valid' ? 'used' : status);
  }
  attempt.succeeded();
  forgetAccountState(user.id);
  return { email: user.email };
}
