// Every page and every server action checks the caller's role on the server itself. Each is
// called here directly, over HTTP, as anyone could: signed out, as staff, as an admin.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { db } from '../../lib/db/client';
import { browser, newAccount, signIn, type Browser, type TestAccount } from '../support/accounts';
import { sharedServer } from '../support/api';
import { callAction, form, serverActions } from '../support/server-actions';

const serverLog = () => readFileSync(inject('serverLogFile'), 'utf8');
const SIGNED_OUT = 'Your sign-in has ended. Sign in again, then retry.';
const ADMINS_ONLY = 'Only admins may do that.';

/** Who may call each server action, and a call of it. A new action must be added here. */
const ACTIONS: Record<string, { page: string; access: 'public' | 'staff' | 'admin' }> = {
  createTokenAction: { page: '/tokens', access: 'staff' },
  revokeTokenAction: { page: '/tokens', access: 'staff' },
  changePasswordAction: { page: '/account', access: 'staff' },
  signOutEverywhereAction: { page: '/account', access: 'staff' },
  addStaffMemberAction: { page: '/staff', access: 'admin' },
  disableAccountAction: { page: '/staff', access: 'admin' },
  enableAccountAction: { page: '/staff', access: 'admin' },
  setRoleAction: { page: '/staff', access: 'admin' },
  resetPasswordAction: { page: '/staff', access: 'admin' },
  resetSecondFactorAction: { page: '/staff', access: 'admin' },
  setSecondFactorRequirementAction: { page: '/staff', access: 'admin' },
  startEnrolmentAction: { page: '/account', access: 'staff' },
  confirmEnrolmentAction: { page: '/account', access: 'staff' },
  removeSecondFactorAction: { page: '/account', access: 'staff' },
  setPasswordSignInAction: { page: '/staff', access: 'admin' },
  createEndpointAction: { page: '/webhooks', access: 'admin' },
  setEndpointEnabledAction: { page: '/webhooks', access: 'admin' },
  sendTestEventAction: { page: '/webhooks', access: 'admin' },
  deleteEndpointAction: { page: '/webhooks', access: 'admin' },
  resendDeliveryAction: { page: '/webhooks', access: 'admin' },
  rotateSecretAction: { page: '/webhooks', access: 'admin' },
  checkPasswordLinkAction: { page: '/set-password', access: 'public' },
  setPasswordAction: { page: '/set-password', access: 'public' },
  requestPasswordEmailAction: { page: '/forgot-password', access: 'public' },
};

let admin: TestAccount;
let staff: TestAccount;
let asAdmin: Browser;
let asStaff: Browser;
const signedOut = () => browser(sharedServer().url);

beforeAll(async () => {
  admin = await newAccount('admin', 'roles-admin');
  staff = await newAccount('staff', 'roles-staff');
  [asAdmin, asStaff] = await Promise.all([signIn(sharedServer().url, admin), signIn(sharedServer().url, staff)]);
});

describe('pages', () => {
  const STAFF_PAGES = ['/', '/catalogue', '/import', '/tokens', '/docs', '/account'];
  const ADMIN_PAGES = ['/staff', '/webhooks', '/audit', '/backups'];

  it('send a signed-out visitor to sign in, and come back', async () => {
    for (const path of [...STAFF_PAGES, ...ADMIN_PAGES]) {
      const response = await signedOut().fetch(path);
      expect(response.status, path).toBe(307);
      expect(response.headers.get('location'), path).toBe(`/login?callbackUrl=${encodeURIComponent(path)}`);
    }
  });

  it('open for staff, except the admin pages, which answer 403 and log the refusal', async () => {
    for (const path of STAFF_PAGES) expect((await asStaff.fetch(path)).status, path).toBe(200);
    for (const path of ADMIN_PAGES) {
      const refused = await asStaff.fetch(path);
      expect(refused.status, path).toBe(403);
      const page = await refused.text();
      expect(page).toContain('Admins only');
      expect(page).not.toContain(admin.email);
      await expect.poll(serverLog).toMatch(new RegExp(`"msg":"page refused: admins only","path":"${path}","userId":"${staff.id}","role":"staff"`));
    }
  });

  it('all open for an admin, and the navigation shows Staff, Webhooks, Activity and Backups only to admins', async () => {
    for (const path of [...STAFF_PAGES, ...ADMIN_PAGES]) expect((await asAdmin.fetch(path)).status, path).toBe(200);
    const staffPage = await (await asAdmin.fetch('/staff')).text();
    expect(staffPage).toContain(staff.email);
    const staffsHome = await (await asStaff.fetch('/')).text();
    for (const path of ADMIN_PAGES) {
      expect(staffPage).toContain(`href="${path}"`);
      expect(staffsHome).not.toContain(`href="${path}"`);
    }
  });

  it('/set-password and /login are open to anyone', async () => {
    expect((await signedOut().fetch('/set-password')).status).toBe(200);
    expect((await signedOut().fetch('/login')).status).toBe(200);
  });
});

describe('server actions', () => {
  it('are each listed above with who may call them', () => {
    const names = [...serverActions().values()].map((entry) => entry.exportedName).sort();
    expect(names).toEqual(Object.keys(ACTIONS).sort());
  });

  it('refuse a signed-out caller, except the set-password link ones and "forgot your password?"', async () => {
    for (const [name, { page, access }] of Object.entries(ACTIONS)) {
      if (access === 'public') continue;
      const { status, value } = await callAction(signedOut(), page, name, ...argumentsFor(name, staff.id));
      expect(status, name).toBe(200);
      expect(JSON.stringify(value), name).toContain(SIGNED_OUT);
    }
  });

  it('refuse staff every admin action, change nothing, and log each refusal', async () => {
    const target = await newAccount('staff', 'roles-target');
    const before = await db().user.findUniqueOrThrow({ where: { id: target.id } });
    const accountsBefore = await db().user.count();
    for (const [name, { page, access }] of Object.entries(ACTIONS)) {
      if (access !== 'admin') continue;
      const { value } = await callAction(asStaff, page, name, ...argumentsFor(name, target.id));
      expect(JSON.stringify(value), name).toContain(ADMINS_ONLY);
      // The log names the action by its name without the suffix.
      const logged = `"msg":"server action refused: admins only","action":"${name.replace(/Action$/, '')}","userId":"${staff.id}"`;
      await expect.poll(serverLog).toContain(logged);
    }
    expect(await db().user.findUniqueOrThrow({ where: { id: target.id } })).toEqual(before);
    expect(await db().user.count()).toBe(accountsBefore);
  });

  it('do for an admin what they say', async () => {
    const email = `roles-added-${Date.now()}@example.com`;
    const added = await callAction(asAdmin, '/staff', 'addStaffMemberAction', { kind: 'idle' }, form({ email, role: 'staff' }));
    expect(added.value).toMatchObject({ kind: 'created', email, linkPath: expect.stringMatching(/^\/set-password#[\w-]{43}$/) });
    const { id } = await db().user.findUniqueOrThrow({ where: { email } });

    expect((await callAction(asAdmin, '/staff', 'setRoleAction', id, 'admin')).value).toEqual({ ok: true });
    expect((await callAction(asAdmin, '/staff', 'disableAccountAction', id)).value).toEqual({ ok: true });
    expect((await callAction(asAdmin, '/staff', 'enableAccountAction', id)).value).toEqual({ ok: true });
    expect((await callAction(asAdmin, '/staff', 'resetPasswordAction', id)).value).toMatchObject({ ok: true, linkPath: expect.stringMatching(/^\/set-password#/) });
    expect((await callAction(asAdmin, '/staff', 'resetSecondFactorAction', id)).value).toEqual({ ok: false, message: 'That account has no second factor (any more).' });
    expect(await db().user.findUniqueOrThrow({ where: { id } })).toMatchObject({ role: 'admin', disabledAt: null, passwordHash: null });
    // Nonsense arguments are refused with a reason, not a fault.
    expect((await callAction(asAdmin, '/staff', 'setRoleAction', id, 'owner')).value).toEqual({ ok: false, message: 'role: must be admin or staff' });
    expect((await callAction(asAdmin, '/staff', 'disableAccountAction', 'usr_nobody')).value).toEqual({ ok: false, message: 'There is no such account (any more).' });
  });

  it('let staff revoke only their own tokens, and admins anyone\'s', async () => {
    const { summary: adminsToken } = await createApiToken({ name: 'admin owned', createdById: admin.id }, OPERATOR_COMMAND);
    const { summary: staffsToken } = await createApiToken({ name: 'staff owned', createdById: staff.id }, OPERATOR_COMMAND);
    expect((await callAction(asStaff, '/tokens', 'revokeTokenAction', adminsToken.id)).value).toEqual({
      ok: false,
      message: 'That token was already revoked or does not exist.',
    });
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: adminsToken.id } })).revokedAt).toBeNull();
    expect((await callAction(asAdmin, '/tokens', 'revokeTokenAction', staffsToken.id)).value).toEqual({ ok: true });
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: staffsToken.id } })).revokedAt).not.toBeNull();
  });

  it('let staff give a token only the scopes of their role', async () => {
    const create = (who: Browser, scopes: string[]) =>
      callAction(who, '/tokens', 'createTokenAction', { kind: 'idle' }, form({ name: `scoped ${scopes.join(' ')}`, expiresInDays: '7', scopes }));
    expect((await create(asStaff, ['plants:read'])).value).toMatchObject({ kind: 'created' });
    expect((await create(asStaff, ['plants:read', 'audit:read'])).value).toEqual({
      kind: 'error',
      message: "scopes: A staff account's token cannot have audit:read",
    });
    expect((await create(asStaff, [])).value).toEqual({ kind: 'error', message: 'scopes: choose at least one' });
    expect((await create(asAdmin, ['webhooks:manage', 'audit:read'])).value).toMatchObject({ kind: 'created' });
    // The metrics scraper's token: offered to admins on /tokens, and made there; refused to staff.
    expect(await (await asAdmin.fetch('/tokens')).text()).toContain('value="metrics:read"');
    expect(await (await asStaff.fetch('/tokens')).text()).not.toContain('value="metrics:read"');
    expect((await create(asAdmin, ['metrics:read'])).value).toMatchObject({ kind: 'created' });
    expect((await create(asStaff, ['metrics:read'])).value).toEqual({
      kind: 'error',
      message: "scopes: A staff account's token cannot have metrics:read",
    });
  });
});

/** Arguments that would make each action do its work on `accountId`, were it allowed. */
function argumentsFor(name: string, accountId: string): unknown[] {
  switch (name) {
    case 'createTokenAction':
      return [{ kind: 'idle' }, form({ name: 'refused', expiresInDays: 'never', scopes: ['plants:read'] })];
    case 'revokeTokenAction':
      return ['tok_whatever'];
    case 'changePasswordAction':
      return [{ kind: 'idle' }, form({ currentPassword: 'whatever it was', newPassword: 'a brand new passphrase' })];
    case 'signOutEverywhereAction':
    case 'startEnrolmentAction':
      return [];
    case 'confirmEnrolmentAction':
    case 'removeSecondFactorAction':
      return [{ kind: 'idle' }, form({ code: '123456' })];
    case 'setSecondFactorRequirementAction':
      return [{ kind: 'idle' }, form({ required: 'everyone' })];
    case 'addStaffMemberAction':
      return [{ kind: 'idle' }, form({ email: `refused-${Date.now()}@example.com`, role: 'admin' })];
    case 'setRoleAction':
      return [accountId, 'admin'];
    case 'setPasswordSignInAction':
      return [true];
    case 'createEndpointAction':
      return [{ kind: 'idle' }, form({ url: 'https://127.0.0.1:9/refused', events: ['plant.created'] })];
    case 'setEndpointEnabledAction':
      return ['wh_whatever', false];
    default:
      return [accountId];
  }
}
