// Set-password links by email, in-process on each engine's database, against a real SMTP server on
// loopback (test/support/smtp.ts): the outbox written with the link, the sender (lib/mail/sender.ts)
// and what the SMTP server receives; "forgot password" with its limits and its one answer; an SMTP
// server that is down; a link that expires before it is sent or used.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { disableAccount, resetPassword } from '../../lib/auth/accounts/changes';
import { createUser } from '../../lib/auth/accounts/directory';
import { verifyPassword } from '../../lib/auth/passwords/hash';
import { PASSWORD_LINK_LIFETIME_MS, PasswordLinkError, setPasswordWithLink } from '../../lib/auth/passwords/links';
import { db } from '../../lib/db/client';
import { ApiError } from '../../lib/errors';
import { requestPasswordEmail } from '../../lib/mail/forgot-password';
import { sendDueMail } from '../../lib/mail/sender';
import { exposition } from '../../lib/metrics/registry';
import { scrape } from '../../lib/metrics/scrape';
import { MAIL_HISTORY_DAYS, pruneExpired } from '../../lib/retention';
import { processOnOwnDatabase } from '../support/fixtures';
import { setEnv } from '../support/settings';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp';

processOnOwnDatabase();

const PASSWORD = 'moss grows on the north side';
const NEW_PASSWORD = 'ferns unfurl in the shade';
const ORIGIN = 'https://plants.example.com';
let counter = 0;
const email = (label: string) => `${label}-${++counter}@example.com`;
let address = 0;
/** A client address of the call's own, so no test spends another's allowance. */
const client = () => ({ clientAddress: `192.0.2.${++address}`, requestId: `req-${address}` });
const secretOf = (link: string | null) => link!.split('#')[1];
const send = () => sendDueMail({ budgetMs: 20_000 });
const messagesTo = (to: string) => db().mailMessage.findMany({ where: { recipient: to }, orderBy: { seq: 'asc' } });

let smtp: TestSmtpServer;
let restore = () => {};

beforeAll(async () => {
  smtp = await startSmtpServer();
  restore = setEnv({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Plant Store <plants@example.com>',
    PUBLIC_URL: ORIGIN,
    STORE_NAME: 'Fern & <Frond>',
    MAIL_RETRY_SCHEDULE: '1s,1s,1s',
    PASSWORD_ATTEMPTS_PER_MINUTE: '20',
  });
  // The first account is an admin whatever is asked: made here, so the tests' accounts are staff.
  await createUser({ email: email('admin'), role: 'admin', password: PASSWORD });
});

afterAll(async () => {
  restore();
  await smtp.stop();
});

describe('an invitation', () => {
  it('is a message with a plain-text and an HTML part, the store named (escaped in HTML), carrying a link that sets the password once', async () => {
    const to = email('invited');
    const { passwordLink } = await createUser({ email: to });
    const [queued] = await messagesTo(to);
    expect(queued).toMatchObject({ kind: 'invitation', status: 'pending' });

    await send();
    const [mail] = await smtp.waitFor(to);
    expect(mail.from).toBe('"Plant Store" <plants@example.com>');
    expect(mail.subject).toBe('Your staff account at Fern & <Frond>');
    expect(mail.text).toContain('An admin of Fern & <Frond> has made you a staff account');
    expect(mail.link).toBe(`${ORIGIN}/set-password#${passwordLink}`);
    expect(mail.html).toContain('Fern &amp; &lt;Frond&gt;');
    expect(mail.html).not.toContain('<Frond>');
    expect(mail.html).toContain(`href="${mail.link}"`);

    // Sent: the row keeps who and what, not the link.
    const [sent] = await messagesTo(to);
    expect(sent).toMatchObject({ status: 'sent', text: null, html: null, attempts: 1, lastError: null });
    const record = await db().auditEvent.findFirstOrThrow({ where: { action: 'staff.password_link_emailed', after: { contains: to } } });
    expect(JSON.parse(record.after!)).toEqual({ messageId: sent.id, kind: 'invitation', to });
    expect(await db().auditEvent.count({ where: { OR: [{ after: { contains: passwordLink! } }, { before: { contains: passwordLink! } }] } })).toBe(0);

    // The journey's end: the link from the message sets the password, once.
    await setPasswordWithLink(secretOf(mail.link), NEW_PASSWORD, client());
    const user = await db().user.findUniqueOrThrow({ where: { email: to } });
    expect(await verifyPassword(NEW_PASSWORD, user.passwordHash!)).toBe(true);
    await expect(setPasswordWithLink(secretOf(mail.link), NEW_PASSWORD, client())).rejects.toThrow(new PasswordLinkError('used'));
    expect(await exposition()).toMatch(/plant_store_mail_messages_total\{outcome="sent"\} [1-9]/);
  });

  it("an admin's reset mails the new link, and the old one ends; a disabled account gets no message", async () => {
    const to = email('reset');
    const { account } = await createUser({ email: to });
    await send();
    const [invitation] = await smtp.waitFor(to);
    const { secret, mailed } = await resetPassword(account.id, OPERATOR_COMMAND);
    expect(mailed).toBe(true);
    await send();
    const [, reset] = await smtp.waitFor(to, { count: 2 });
    expect(reset.subject).toBe('Set a new password for Fern & <Frond>');
    expect(reset.text).toContain('has reset the password of your staff account');
    expect(secretOf(reset.link)).toBe(secret);
    await expect(setPasswordWithLink(secretOf(invitation.link), NEW_PASSWORD, client())).rejects.toThrow(PasswordLinkError);

    await disableAccount(account.id, OPERATOR_COMMAND);
    // Not mailed, and the page is told so: it shows the link instead.
    expect((await resetPassword(account.id, OPERATOR_COMMAND)).mailed).toBe(false);
    await send();
    expect(await messagesTo(to)).toHaveLength(2);
  });
});

describe('forgot password', () => {
  it('answers the same for an account, an address with none and a disabled account; only the account gets a link, and its password works until the link is used', async () => {
    const [known, unknown, disabled] = [email('known'), email('nobody'), email('disabled')];
    await createUser({ email: known, password: PASSWORD });
    const { account } = await createUser({ email: disabled, password: PASSWORD });
    await disableAccount(account.id, OPERATOR_COMMAND);

    const answers = [];
    for (const to of [known, unknown, disabled]) {
      const answer = await requestPasswordEmail(to.toUpperCase(), client());
      answers.push(Object.keys(answer).sort().join());
      // Answered before the account is even looked up: until the work after the answer runs, no link exists.
      expect(await db().passwordLink.count({ where: { user: { email: to } } })).toBe(0);
      if (answer.accepted) await answer.work();
    }
    expect(answers).toEqual(['accepted,work', 'accepted,work', 'accepted,work']);
    await send();
    const [mail] = await smtp.waitFor(known);
    expect(mail.subject).toBe('Set a new password for Fern & <Frond>');
    expect(mail.text).toContain('If it was not you, ignore this message: your password stays as it is.');
    expect(await messagesTo(unknown)).toEqual([]);
    expect(await messagesTo(disabled)).toEqual([]);
    expect(smtp.received.filter((received) => received.to.includes(unknown) || received.to.includes(disabled))).toEqual([]);

    const user = await db().user.findUniqueOrThrow({ where: { email: known } });
    expect(await verifyPassword(PASSWORD, user.passwordHash!)).toBe(true);
    const record = await db().auditEvent.findFirstOrThrow({ where: { action: 'staff.password_link_emailed', targetId: user.id } });
    expect(record).toMatchObject({ actorType: 'system', actorName: 'forgot-password', clientAddress: expect.stringMatching(/^192\.0\.2\./) });
    await setPasswordWithLink(secretOf(mail.link), NEW_PASSWORD, client());
    expect(await verifyPassword(NEW_PASSWORD, (await db().user.findUniqueOrThrow({ where: { email: known } })).passwordHash!)).toBe(true);
  });

  it('an address asked for again within a minute is refused, whether or not it has an account, and admitted once the wait is over', async () => {
    const known = email('again');
    await createUser({ email: known, password: PASSWORD });
    const now = Date.now();
    for (const to of [known, email('nobody-again')]) {
      expect((await requestPasswordEmail(to, client(), now)).accepted).toBe(true);
      expect(await requestPasswordEmail(to, client(), now + 1000)).toEqual({ accepted: false, retryAfterSeconds: 59 });
      expect((await requestPasswordEmail(to, client(), now + 61_000)).accepted).toBe(true);
      // Then five minutes.
      expect(await requestPasswordEmail(to, client(), now + 62_000)).toEqual({ accepted: false, retryAfterSeconds: 299 });
    }
  });

  it("a client address past its allowance is refused before anything is looked up or counted", async () => {
    const restoreLimit = setEnv({ PASSWORD_ATTEMPTS_PER_MINUTE: '2' });
    try {
      const from = client();
      const now = Date.now();
      await requestPasswordEmail(email('first'), from, now);
      await requestPasswordEmail(email('second'), from, now);
      const third = email('third');
      const refused = await requestPasswordEmail(third, from, now).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ status: 429, kind: 'too_many_password_attempts' });
      expect(await db().loginThrottle.count({ where: { key: { contains: third } } })).toBe(0);
    } finally {
      restoreLimit();
    }
  });
});

describe('an SMTP server that is down', () => {
  it('leaves the message waiting, retried, and sent once the server is back: exactly once', async () => {
    await smtp.stop();
    const to = email('while-down');
    const started = Date.now();
    await createUser({ email: to });
    expect(Date.now() - started).toBeLessThan(5000);
    await send();
    const [waiting] = await messagesTo(to);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lastError: expect.stringMatching(/ECONNREFUSED|connect/i) });
    expect(waiting.text).toContain('/set-password#');
    expect(await exposition()).toMatch(/plant_store_mail_messages_total\{outcome="retrying"\} [1-9]/);
    expect(await scrape()).toMatch(/^plant_store_mail_messages_waiting 1$/m);

    await smtp.start();
    // Due at once, instead of waiting out the retry's delay.
    await db().mailMessage.update({ where: { id: waiting.id }, data: { nextAttemptAt: new Date(0) } });
    await send();
    await smtp.waitFor(to);
    await send();
    expect(smtp.received.filter((mail) => mail.to.includes(to))).toHaveLength(1);
    expect((await messagesTo(to))[0]).toMatchObject({ status: 'sent', attempts: 2, text: null, html: null });
    expect(await scrape()).toMatch(/^plant_store_mail_messages_waiting 0$/m);
  });
});

describe('an account disabled while its message waits', () => {
  it('gets no message: it is given up and blanked in the transaction that disables the account', async () => {
    await smtp.stop();
    const to = email('disabled-while-waiting');
    const { account } = await createUser({ email: to });
    await send();
    await smtp.start();
    await disableAccount(account.id, OPERATOR_COMMAND);
    await db().mailMessage.updateMany({ where: { recipient: to }, data: { nextAttemptAt: new Date(0) } });
    await send();
    expect((await messagesTo(to))[0]).toMatchObject({ status: 'failed', text: null, html: null, lastError: 'the account was disabled' });
    expect(smtp.received.filter((mail) => mail.to.includes(to))).toEqual([]);
  });
});

describe('an expired link', () => {
  it('a message whose link expired before it could be sent is given up and blanked, never sent', async () => {
    await smtp.stop();
    const to = email('too-late');
    await createUser({ email: to });
    await send();
    await smtp.start();
    const [waiting] = await messagesTo(to);
    await db().mailMessage.update({ where: { id: waiting.id }, data: { nextAttemptAt: new Date(0), expiresAt: new Date(Date.now() - 1000) } });
    await send();
    expect((await messagesTo(to))[0]).toMatchObject({ status: 'failed', text: null, html: null, lastError: expect.stringContaining('expired') });
    await send();
    expect(smtp.received.filter((mail) => mail.to.includes(to))).toEqual([]);
  });

  it('a link from a message, followed after its lifetime, is refused as expired', async () => {
    const to = email('expired');
    await createUser({ email: to });
    await send();
    const [mail] = await smtp.waitFor(to);
    const later = new Date(Date.now() + PASSWORD_LINK_LIFETIME_MS + 1000);
    await expect(setPasswordWithLink(secretOf(mail.link), NEW_PASSWORD, client(), later)).rejects.toThrow(new PasswordLinkError('expired'));
  });
});

describe('what is kept', () => {
  it('a finished message, already without its text, is pruned after MAIL_HISTORY_DAYS; one still waiting is kept, whatever its age', async () => {
    await smtp.stop();
    const [gone, waiting] = [email('pruned'), email('kept')];
    await createUser({ email: gone });
    await createUser({ email: waiting });
    await smtp.start();
    const old = new Date(Date.now() - (MAIL_HISTORY_DAYS + 1) * 24 * 3600 * 1000);
    await db().mailMessage.updateMany({ where: { recipient: gone }, data: { status: 'failed', text: null, html: null, finishedAt: old } });
    await db().mailMessage.updateMany({ where: { recipient: waiting }, data: { createdAt: old } });
    expect((await pruneExpired()).messages).toBeGreaterThanOrEqual(1);
    expect(await messagesTo(gone)).toEqual([]);
    expect(await messagesTo(waiting)).toHaveLength(1);
  });
});
