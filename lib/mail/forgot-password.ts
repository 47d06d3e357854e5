// "Forgot your password?": anyone may ask for a set-password link to be sent to an address. The
// answer is the same whether or not an account has that address, and so is the work done before
// it, so neither the words nor the time of the answer tell whether it exists:
// 1. the client address's allowance of password attempts is counted (in memory, at once;
//    lib/auth/passwords/admission.ts): a stranger's burst is refused before anything else;
// 2. the address asked for is claimed in the database's throttle (one statement, the same one
//    sign-in uses, under a key of its own), whether or not an account has it: a few requests per
//    address in a while, so no one can fill a mailbox;
// 3. the answer is given; only after it (the work this module hands back, which the page runs
//    after its response) is the account looked up and, when there is one and it is enabled, a
//    link made and its message put in the outbox (outbox.ts) in one transaction.
import 'server-only';
import type { ChangeContext } from '../audit/context';
import { admitPasswordAttempt } from '../auth/passwords/admission';
import { db } from '../db/client';
import { engine } from '../db/engine';
import { log } from '../log';
import { now as clockNow } from '../shared/clock';
import { mailConfigured } from './config';
import { issuePasswordLinkAndMail } from './outbox';
import { wakeMailSender } from './sender';

// The throttle's window (the sign-in throttle's too: its purge removes rows past it) and the waits
// after each request for the same address: the first at once, then a minute, then five.
const WINDOW_MS = 15 * 60 * 1000;
const DELAYS_MS = [0, 60_000, 5 * 60_000] as const;
// Keeps these counts apart from sign-in's, which are keyed by the address alone.
const KEY_PREFIX = 'forgot-password ';

/** Who asked: nobody signed in, so the system, with the request's id and the client's address. */
const requester = (request: Pick<ChangeContext, 'requestId' | 'clientAddress'>): ChangeContext => ({
  actor: { type: 'system', name: 'forgot-password' },
  ...request,
});

export type PasswordEmailRequest =
  | { accepted: true; /** What to do after the answer: look the account up, and mail it a link if it has one. */ work: () => Promise<void> }
  | { accepted: false; retryAfterSeconds: number };

/** Email is not set up: there is nothing to send a link with. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super('This server does not send email. Ask an admin to reset your password: they can give you a link.');
  }
}

const normalized = (email: string) => email.trim().toLowerCase();

/**
 * Admits a request for a link to `email`: throws the 429 ApiError of the client address's allowance,
 * answers `accepted: false` when the address asked for has had its share, else `accepted: true` and
 * the work to run after the answer.
 */
export async function requestPasswordEmail(
  email: string,
  request: Pick<ChangeContext, 'requestId' | 'clientAddress'>,
  now = clockNow(),
): Promise<PasswordEmailRequest> {
  if (!mailConfigured()) throw new MailNotConfiguredError();
  admitPasswordAttempt(request.clientAddress, now);
  const key = KEY_PREFIX + normalized(email);
  const claimed = await engine().loginThrottle.claim(key, now, now - WINDOW_MS, DELAYS_MS);
  if (!claimed) {
    const row = await engine().loginThrottle.read(key);
    const waitMs = row ? row.lastAttemptAt + DELAYS_MS[Math.min(row.attempts, DELAYS_MS.length - 1)] - now : 0;
    return { accepted: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
  return { accepted: true, work: () => mailLinkIfAccount(normalized(email), requester(request)) };
}

async function mailLinkIfAccount(email: string, by: ChangeContext): Promise<void> {
  try {
    const user = await db().user.findUnique({ where: { email }, select: { id: true, disabledAt: true } });
    if (!user || user.disabledAt) return;
    const { mailed } = await db().$transaction((tx) => issuePasswordLinkAndMail(tx, user.id, 'forgot_password', by));
    if (mailed) wakeMailSender();
  } catch (error) {
    log.error('forgot password: the link could not be made', { requestId: by.requestId, error: error instanceof Error ? error.message : String(error) });
  }
}
