// The mail outbox: a message is a row written in the same transaction as the set-password link it
// carries, so a link made is never left unsent, nor a message sent for a link that was rolled back.
// The sender (sender.ts) sends the rows afterwards, at least once. The link is in the row's text
// and HTML only until the message is sent or given up; the audit record names the message, never
// the link.
import 'server-only';
import type { ChangeContext } from '../audit/context';
import { auditRow, insertAuditRows } from '../audit/records';
import type { Transaction } from '../db/client';
import { randomId } from '../ids';
import { issuePasswordLink, PASSWORD_LINK_LIFETIME_MS, passwordLinkPath } from '../auth/passwords/links';
import { currentDate } from '../shared/clock';
import { currentTraceparent } from '../tracing/spans';
import { mailConfigured, mailOrigin, storeName } from './config';
import { composeMail, type MailKind } from './messages';

const HOUR_MS = 60 * 60 * 1000;

/**
 * Makes the account's one valid set-password link (ending older ones), as issuePasswordLink does,
 * and, when email is set up and the account is enabled, puts the message that carries it in the
 * outbox, with its audit record, all inside `tx`. Answers the link's secret and whether it was
 * mailed. Wake the sender once `tx` has committed (wakeMailSender).
 */
export async function issuePasswordLinkAndMail(
  tx: Transaction,
  userId: string,
  kind: MailKind,
  by: ChangeContext,
  now = currentDate(),
): Promise<{ secret: string; mailed: boolean }> {
  const secret = await issuePasswordLink(tx, userId, now);
  if (!mailConfigured()) return { secret, mailed: false };
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true, disabledAt: true } });
  // A disabled account's link does not work: it gets no message.
  if (!user || user.disabledAt) return { secret, mailed: false };
  const link = `${mailOrigin()}${passwordLinkPath(secret)}`;
  const message = composeMail(kind, { store: storeName(), email: user.email, link, lifetimeHours: PASSWORD_LINK_LIFETIME_MS / HOUR_MS });
  const id = randomId('mail_', 24);
  await tx.mailMessage.create({
    data: {
      id,
      kind,
      recipient: user.email,
      subject: message.subject,
      text: message.text,
      html: message.html,
      nextAttemptAt: now,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSWORD_LINK_LIFETIME_MS),
      traceparent: currentTraceparent(),
    },
  });
  const record = { action: 'staff.password_link_emailed' as const, target: { type: 'staff' as const, id: userId }, after: { messageId: id, kind, to: user.email } };
  await insertAuditRows(tx, [auditRow(record, by, now)]);
  return { secret, mailed: true };
}

/**
 * Gives up the messages still waiting for the account (inside `tx`, the transaction that disables
 * it): their links end with it, and a disabled account gets no mail. Blanked as a sent one is.
 */
export async function cancelWaitingMail(tx: Transaction, userId: string, now = currentDate()): Promise<void> {
  const user = await tx.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) return;
  await tx.mailMessage.updateMany({
    where: { recipient: user.email, status: 'pending' },
    data: { status: 'failed', finishedAt: now, nextAttemptAt: now, lastError: 'the account was disabled', text: null, html: null },
  });
}
