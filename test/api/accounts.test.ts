// The account rules, on a database of this file's own (so "the first account" and "the last
// admin" mean what they say): roles, the last-admin rule under races, one-time set-password
// links, password rules, and what deleting an account does to its tokens.
import { describe, expect, it } from 'vitest';
import { AccountError, changePassword, disableAccount, enableAccount, resetPassword, setAccountRole } from '../../lib/auth/accounts/changes';
import { OPERATOR_COMMAND, staffContext } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { verifyPassword } from '../../lib/auth/passwords/hash';
import { inspectPasswordLink, PasswordLinkError, setPasswordWithLink } from '../../lib/auth/passwords/links';
import { passwordProblem, PasswordRuleError } from '../../lib/auth/passwords/policy';
import { createUser } from '../../lib/auth/accounts/directory';
import { db } from '../../lib/db/client';
import { processOnOwnDatabase } from '../support/fixtures';

processOnOwnDatabase();

const GOOD_PASSWORD = 'moss grows on the north side';
let counter = 0;
const email = (label: string) => `${label}-${++counter}@example.com`;
const make = async (role: 'admin' | 'staff', password?: string) => (await createUser({ email: email(role), role, password })).account;
const row = (id: string) => db().user.findUniqueOrThrow({ where: { id } });

describe('roles', () => {
  it('the first account ever made is an admin, whatever was asked; later ones default to staff', async () => {
    const first = await createUser({ email: email('first'), role: 'staff', password: GOOD_PASSWORD });
    expect(first.account.role).toBe('admin');
    expect(first.passwordLink).toBeNull();
    const second = await createUser({ email: email('second') });
    expect(second.account).toMatchObject({ role: 'staff', hasPassword: false, disabled: false });
    expect(second.passwordLink).toMatch(/^[\w-]{43}$/);
    await expect(createUser({ email: second.account.email.toUpperCase() })).rejects.toThrow('already exists');
  });
});

describe('the last active admin', () => {
  it('cannot be disabled or demoted; once there is another, they can', async () => {
    await db().user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
    const only = await make('admin', GOOD_PASSWORD);
    await expect(disableAccount(only.id, OPERATOR_COMMAND)).rejects.toThrow(`${only.email} is the last active admin: make someone else an admin first.`);
    await expect(setAccountRole(only.id, 'staff', OPERATOR_COMMAND)).rejects.toThrow('is the last active admin');
    expect(await row(only.id)).toMatchObject({ role: 'admin', disabledAt: null, sessionVersion: 0 });

    // A disabled admin is not an active one.
    const dormant = await make('admin');
    await disableAccount(dormant.id, OPERATOR_COMMAND);
    await expect(disableAccount(only.id, OPERATOR_COMMAND)).rejects.toThrow('is the last active admin');
    await setAccountRole(dormant.id, 'staff', OPERATOR_COMMAND);

    const second = await make('staff');
    await setAccountRole(second.id, 'admin', OPERATOR_COMMAND);
    await disableAccount(only.id, OPERATOR_COMMAND);
    await expect(setAccountRole(second.id, 'staff', OPERATOR_COMMAND)).rejects.toThrow('is the last active admin');
    await enableAccount(only.id, OPERATOR_COMMAND);
    await setAccountRole(second.id, 'staff', OPERATOR_COMMAND);
    expect((await row(second.id)).role).toBe('staff');
  });

  it('two admins removing each other at the same moment: exactly one wins, every time', async () => {
    await db().user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
    const [a, b] = [await make('admin'), await make('admin')];
    for (let round = 0; round < 12; round++) {
      // Disable against disable, then demote against disable, then demote against demote.
      const moves = [
        [() => disableAccount(a.id, OPERATOR_COMMAND), () => disableAccount(b.id, OPERATOR_COMMAND)],
        [() => setAccountRole(a.id, 'staff', OPERATOR_COMMAND), () => disableAccount(b.id, OPERATOR_COMMAND)],
        [() => setAccountRole(a.id, 'staff', OPERATOR_COMMAND), () => setAccountRole(b.id, 'staff', OPERATOR_COMMAND)],
      ][round % 3];
      const settled = await Promise.allSettled(moves.map((move) => move()));
      expect(settled.filter((result) => result.status === 'fulfilled'), `round ${round}`).toHaveLength(1);
      const refused = settled.find((result) => result.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(AccountError);
      expect(await db().user.count({ where: { role: 'admin', disabledAt: null } })).toBe(1);
      await db().user.updateMany({ where: { id: { in: [a.id, b.id] } }, data: { role: 'admin', disabledAt: null } });
    }
  });

  it('each change that takes access away moves the session version on, and a no-op says so', async () => {
    const admin = await make('admin');
    const member = await make('staff', GOOD_PASSWORD);
    const versions = [(await row(member.id)).sessionVersion];
    await setAccountRole(member.id, 'admin', staffContext(admin));
    versions.push((await row(member.id)).sessionVersion);
    await setAccountRole(member.id, 'staff', staffContext(admin));
    versions.push((await row(member.id)).sessionVersion);
    await disableAccount(member.id, staffContext(admin));
    versions.push((await row(member.id)).sessionVersion);
    await enableAccount(member.id, staffContext(admin));
    await resetPassword(member.id, staffContext(admin));
    versions.push((await row(member.id)).sessionVersion);
    expect(versions).toEqual([0, 1, 2, 3, 4]);
    await expect(enableAccount(member.id, staffContext(admin))).rejects.toThrow('That account is not disabled.');
    await expect(setAccountRole(member.id, 'staff', staffContext(admin))).rejects.toThrow('That account is already staff.');
    await expect(disableAccount('usr_nobody', staffContext(admin))).rejects.toThrow('There is no such account (any more).');
  });
});

describe('one-time set-password links', () => {
  it('set the password once; the account signs in with it, and its sessions end', async () => {
    const { account, passwordLink } = await createUser({ email: email('invited') });
    expect(await inspectPasswordLink(passwordLink!)).toEqual({ status: 'valid', email: account.email });
    // Kept only as a hash.
    const stored = await db().passwordLink.findFirstOrThrow({ where: { userId: account.id } });
    expect(JSON.stringify(stored)).not.toContain(passwordLink);

    expect(await setPasswordWithLink(passwordLink!, GOOD_PASSWORD)).toEqual({ email: account.email });
    const user = await row(account.id);
    expect(await verifyPassword(GOOD_PASSWORD, user.passwordHash!)).toBe(true);
    expect(user.sessionVersion).toBe(1);

    await expect(setPasswordWithLink(passwordLink!, 'a different passphrase here')).rejects.toThrow(
      new PasswordLinkError('used'),
    );
    expect(await inspectPasswordLink(passwordLink!)).toEqual({ status: 'used' });
    expect(await verifyPassword(GOOD_PASSWORD, (await row(account.id)).passwordHash!)).toBe(true);
  });

  it('expire after 24 hours', async () => {
    const { account, passwordLink } = await createUser({ email: email('late') });
    const almost = new Date(Date.now() + 24 * 60 * 60 * 1000 - 60_000);
    expect((await inspectPasswordLink(passwordLink!, almost)).status).toBe('valid');
    const after = new Date(Date.now() + 24 * 60 * 60 * 1000 + 1000);
    expect((await inspectPasswordLink(passwordLink!, after)).status).toBe('expired');
    await expect(setPasswordWithLink(passwordLink!, GOOD_PASSWORD, {}, after)).rejects.toThrow(/has expired/);
    expect((await row(account.id)).passwordHash).toBeNull();
  });

  it('refuse a tampered or truncated link, and one an admin has replaced', async () => {
    const { account, passwordLink } = await createUser({ email: email('tampered') });
    const secret = passwordLink!;
    const flipped = `${secret.slice(0, 10)}${secret[10] === 'A' ? 'B' : 'A'}${secret.slice(11)}`;
    for (const bad of [flipped, secret.slice(0, -1), `${secret}x`, '', 'not a link at all', secret.toLowerCase() === secret ? `${secret.slice(0, -1)}Z` : secret.toLowerCase()]) {
      expect((await inspectPasswordLink(bad)).status, bad).toBe('invalid');
      await expect(setPasswordWithLink(bad, GOOD_PASSWORD)).rejects.toThrow(/not valid/);
    }
    const { secret: replacement } = await resetPassword(account.id, OPERATOR_COMMAND);
    expect((await inspectPasswordLink(secret)).status).toBe('invalid');
    expect((await inspectPasswordLink(replacement)).status).toBe('valid');
    expect((await row(account.id)).passwordHash).toBeNull();
  });

  it('end when their account is disabled, and stay ended once it is enabled again', async () => {
    const { account, passwordLink } = await createUser({ email: email('disabled-invitee') });
    await disableAccount(account.id, OPERATOR_COMMAND);
    expect((await inspectPasswordLink(passwordLink!)).status).toBe('invalid');
    await expect(setPasswordWithLink(passwordLink!, GOOD_PASSWORD)).rejects.toThrow(new PasswordLinkError('invalid'));
    await enableAccount(account.id, OPERATOR_COMMAND);
    await expect(setPasswordWithLink(passwordLink!, GOOD_PASSWORD)).rejects.toThrow(new PasswordLinkError('invalid'));
    expect((await row(account.id)).passwordHash).toBeNull();
  });

  it('refuse an account that is disabled, even a link made for it since', async () => {
    const { account } = await createUser({ email: email('disabled-reset') });
    await disableAccount(account.id, OPERATOR_COMMAND);
    const { secret: link } = await resetPassword(account.id, OPERATOR_COMMAND);
    expect(await inspectPasswordLink(link)).toEqual({ status: 'disabled' });
    await expect(setPasswordWithLink(link, GOOD_PASSWORD)).rejects.toThrow(new PasswordLinkError('disabled'));
    expect((await row(account.id)).passwordHash).toBeNull();
    // Enabled again, the link works.
    await enableAccount(account.id, OPERATOR_COMMAND);
    expect(await setPasswordWithLink(link, GOOD_PASSWORD)).toEqual({ email: account.email });
  });

  it('a weak password is refused without using the link up; two uses at once, one wins', async () => {
    const { passwordLink } = await createUser({ email: email('racing') });
    await expect(setPasswordWithLink(passwordLink!, 'short')).rejects.toThrow(PasswordRuleError);
    expect((await inspectPasswordLink(passwordLink!)).status).toBe('valid');
    const settled = await Promise.allSettled([setPasswordWithLink(passwordLink!, GOOD_PASSWORD), setPasswordWithLink(passwordLink!, `${GOOD_PASSWORD}!`)]);
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  });
});

describe('passwords', () => {
  it('are at least 12 characters, at most 1024, and not a common password (whatever the case)', async () => {
    expect(await passwordProblem('eleven chrs')).toBe('must be at least 12 characters');
    expect(await passwordProblem('x'.repeat(1025))).toBe('must be at most 1024 characters');
    expect(await passwordProblem('é'.repeat(5000))).toBe('must be at most 1024 characters');
    for (const common of ['qwertyuiop123', '1qaz2wsx3edc', 'PASSWORD1234', 'Qwerty123456']) {
      expect(await passwordProblem(common), common).toMatch(/one of the most common passwords/);
    }
    // Twelve characters as a person counts them, not UTF-16 units.
    expect(await passwordProblem('🌱'.repeat(11))).toBe('must be at least 12 characters');
    expect(await passwordProblem('🌱'.repeat(12))).toBeNull();
    expect(await passwordProblem(GOOD_PASSWORD)).toBeNull();
  });

  it('are changed only with the current one, and the change ends every session', async () => {
    const member = await make('staff', GOOD_PASSWORD);
    await expect(changePassword(member.id, 'not the password', 'a fresh new passphrase', staffContext(member))).rejects.toThrow('The current password is not right.');
    await expect(changePassword(member.id, GOOD_PASSWORD, 'qwertyuiop123', staffContext(member))).rejects.toThrow(PasswordRuleError);
    await changePassword(member.id, GOOD_PASSWORD, 'a fresh new passphrase', staffContext(member));
    const user = await row(member.id);
    expect(await verifyPassword('a fresh new passphrase', user.passwordHash!)).toBe(true);
    expect(await verifyPassword(GOOD_PASSWORD, user.passwordHash!)).toBe(false);
    expect(user.sessionVersion).toBe(1);
  });
});

describe('a deleted account', () => {
  it('takes its API tokens with it (foreign key ON DELETE CASCADE), and its links', async () => {
    const member = await make('staff');
    const { summary } = await createApiToken({ name: 'leaver', createdById: member.id }, OPERATOR_COMMAND);
    const { summary: operators } = await createApiToken({ name: 'operator' }, OPERATOR_COMMAND);
    await db().user.delete({ where: { id: member.id } });
    expect(await db().apiToken.findUnique({ where: { id: summary.id } })).toBeNull();
    expect(await db().passwordLink.count({ where: { userId: member.id } })).toBe(0);
    expect(await db().apiToken.findUnique({ where: { id: operators.id } })).not.toBeNull();
  });
});
