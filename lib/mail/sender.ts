// The mail sender: sends the outbox's messages (outbox.ts), at least once. It runs on the same loop
// as the webhook dispatcher (lib/poll-loop.ts): in the Node server process it is woken right after
// a commit here and polls for the rest (messages other instances or the CLI wrote, retries that fall
// due). A message is claimed by one conditional update, with a lease, so of several
// instances one sends it; a sender that dies mid-send leaves it to be taken again once its lease
// lapses. A failed attempt is retried on MAIL_RETRY_SCHEDULE with jitter, until the schedule or the
// link's lifetime runs out; the message is then given up. Once sent or given up, its text and HTML,
// which hold the link, are blanked. Sending never happens inside a request: a slow or absent SMTP
// server slows no page.
import 'server-only';
import { after } from 'next/server';
import { db } from '../db/client';
import { log } from '../log';
import { countMailOutcome } from '../metrics/registry';
import { pollLoop } from '../poll-loop';
import { settings } from '../settings';
import { currentDate } from '../shared/clock';
import { contextOfTraceparent, inSpan, SpanKind } from '../tracing/spans';
import { withJitter } from '../webhooks/config';
import { mailConfigured, mailRetrySchedule } from './config';
import { sendMail } from './transport';

// Messages claimed per pass; they are sent one after another.
const BATCH = 10;
// A claimed message is this sender's for this long: well beyond an attempt's bounded waits.
const LEASE_MS = 2 * 60_000;
// The longest error text kept on a row.
const MAX_ERROR_LENGTH = 500;
// What a function may spend sending after its response (Vercel).
const AFTER_RESPONSE_BUDGET_MS = 15_000;

// In the Node server process: the loop that runs the passes (lib/poll-loop.ts).
const loop = pollLoop('mail-sender');

type Claimed = { id: string; kind: string; recipient: string; subject: string; text: string | null; html: string | null; attempts: number; expiresAt: Date; traceparent: string | null };

const finished = (status: 'sent' | 'failed', now: Date, lastError: string | null) => ({
  status,
  finishedAt: now,
  nextAttemptAt: now,
  leaseUntil: null,
  lastError,
  // The link goes with them.
  text: null,
  html: null,
});

/** Records what an attempt came to, unless the message was taken again meanwhile (its lease ran out). */
async function complete(message: Claimed, error: string | null): Promise<void> {
  const now = currentDate();
  const where = { id: message.id, status: 'sending', attempts: message.attempts };
  if (error === null) {
    await db().mailMessage.updateMany({ where, data: finished('sent', now, null) });
    countMailOutcome('sent');
    log.info('mail sent', { messageId: message.id, kind: message.kind, attempt: message.attempts });
    return;
  }
  const schedule = mailRetrySchedule();
  const retries = message.attempts - 1;
  const nextAttemptAt = retries < schedule.length ? new Date(now.getTime() + withJitter(schedule[retries])) : null;
  const lastError = error.slice(0, MAX_ERROR_LENGTH);
  if (nextAttemptAt && nextAttemptAt < message.expiresAt) {
    await db().mailMessage.updateMany({ where, data: { status: 'pending', nextAttemptAt, leaseUntil: null, lastError } });
    countMailOutcome('retrying');
    log.warn('mail attempt failed', { messageId: message.id, kind: message.kind, attempt: message.attempts, error: lastError, nextAttemptAt: nextAttemptAt.toISOString() });
    return;
  }
  await db().mailMessage.updateMany({ where, data: finished('failed', now, lastError) });
  countMailOutcome('failed');
  log.error('mail given up', { messageId: message.id, kind: message.kind, attempt: message.attempts, error: lastError });
}

async function attempt(message: Claimed): Promise<void> {
  if (message.expiresAt <= currentDate() || message.text === null || message.html === null) {
    return complete(message, 'the link it carries expired before it could be sent');
  }
  const { text, html } = message;
  let error: string | null = null;
  try {
    await inSpan(
      'mail send',
      {
        kind: SpanKind.CLIENT,
        parent: contextOfTraceparent(message.traceparent),
        attributes: { 'plant_store.mail.id': message.id, 'plant_store.mail.kind': message.kind, 'plant_store.mail.attempt': message.attempts },
      },
      () => sendMail({ id: message.id, to: message.recipient, subject: message.subject, text, html }),
    );
  } catch (failure) {
    error = failure instanceof Error ? failure.message || failure.name : String(failure);
  }
  await complete(message, error);
}

/** Takes back messages whose sender's lease lapsed (it died mid-send), then claims what is due. */
async function claim(now: Date): Promise<Claimed[]> {
  // Looked for first: an idle sender's poll only reads (on SQLite an update takes the write lock, even one that changes nothing).
  const lapsed = { status: 'sending', leaseUntil: { lt: now } };
  if (await db().mailMessage.findFirst({ where: lapsed, select: { id: true } })) {
    await db().mailMessage.updateMany({ where: lapsed, data: { status: 'pending', leaseUntil: null } });
  }
  const due = await db().mailMessage.findMany({
    where: { status: 'pending', nextAttemptAt: { lte: now } },
    orderBy: { seq: 'asc' },
    take: BATCH,
    select: { id: true, attempts: true },
  });
  const claimed: Claimed[] = [];
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  for (const row of due) {
    // One conditional update: of two senders, one gets it.
    const { count } = await db().mailMessage.updateMany({
      where: { id: row.id, status: 'pending', attempts: row.attempts },
      data: { status: 'sending', leaseUntil, attempts: { increment: 1 } },
    });
    if (count !== 1) continue;
    const message = await db().mailMessage.findUnique({
      where: { id: row.id },
      select: { id: true, kind: true, recipient: true, subject: true, text: true, html: true, attempts: true, expiresAt: true, traceparent: true },
    });
    if (message) claimed.push(message);
  }
  return claimed;
}

/** One pass: claim what is due and send it. Says whether more may be waiting. */
async function cycle(): Promise<boolean> {
  const claimed = await claim(currentDate());
  for (const message of claimed) {
    await attempt(message).catch((error: unknown) =>
      log.error('mail attempt could not be recorded', { messageId: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  }
  return claimed.length === BATCH;
}

/** When the next pending message falls due. */
async function nextDueAt(): Promise<Date | undefined> {
  const next = await db().mailMessage.findFirst({ where: { status: 'pending' }, orderBy: { nextAttemptAt: 'asc' }, select: { nextAttemptAt: true } });
  return next?.nextAttemptAt;
}

/** Starts the sender in this server process, when email is set up (SMTP_URL). */
export function startMailSender(): void {
  if (!mailConfigured()) return;
  loop.start({ pass: cycle, nextDueAt, failure: 'mail sender failed; retrying in a second' });
}

/**
 * "A message was just committed": wakes the sender this process runs, if it runs one (whichever
 * route bundle's copy asks). On Vercel, where none runs, the message is sent after the response
 * (Next's after()), and a retry by the cron route (app/api/cron/webhooks). In a process with neither
 * (an operator command), the server's sender finds it on its next poll.
 */
export function wakeMailSender(): void {
  if (loop.wake()) return;
  if (!settings().VERCEL) return;
  try {
    after(() => sendDueMail({ budgetMs: AFTER_RESPONSE_BUDGET_MS }).then(() => undefined));
  } catch (error) {
    log.warn('mail left to the cron route', { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Sends what is due until nothing is or `budgetMs` is spent: for platforms without a long-running
 * process (Vercel's cron route), and for tests.
 */
export async function sendDueMail({ budgetMs }: { budgetMs: number }): Promise<{ attempts: number }> {
  const deadline = Date.now() + budgetMs;
  let attempts = 0;
  while (Date.now() < deadline) {
    const claimed = await claim(currentDate());
    for (const message of claimed) await attempt(message);
    attempts += claimed.length;
    if (claimed.length < BATCH) break;
  }
  return { attempts };
}
