// Sign-in through an OpenID Connect provider, against a real one: oidc-provider started on loopback
// by this file (test/support/oidc-provider.ts), with its own sign-in and consent pages, and the
// production server configured for it. Who may come in (an existing account by email, whatever its
// case; a new one only from an allowed domain; never a disabled one, never an unverified email),
// the refusals the sign-in page is sent with and their audit records, forged ID tokens and a tampered
// state refused, sessions that end as password sessions do, and password sign-in for admins only.
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { disableAccount, endSessions, setAccountRole } from '../../lib/auth/accounts/changes';
import { findAccountByEmail } from '../../lib/auth/accounts/directory';
import { setSecondFactorRequirement } from '../../lib/auth/second-factor/policy';
import { db } from '../../lib/db/client';
import { browser, newAccount, signIn, type Browser } from '../support/accounts';
import { request, sharedServer } from '../support/api';
import { test } from '../support/fixtures';
import { startTestProvider, TEST_CLIENT_ID, TEST_CLIENT_SECRET, UNVERIFIED, type Tamper, type TestProvider } from '../support/oidc-provider';
import { pressProviderButton, signInThroughProvider } from '../support/oidc-sign-in';
import { freePort, type RunningServer } from '../support/server';
import { callAction } from '../support/server-actions';
import { signInOn } from '../support/sign-in';

const ALLOWED = 'sso.example.org';
let provider: TestProvider;
let server: RunningServer;

test.beforeAll(async ({ processDatabase, startFileServer }) => {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  provider = await startTestProvider({ redirectUris: [`${appUrl}/api/auth/callback/oidc`] });
  server = await startFileServer({
    database: processDatabase,
    port,
    env: {
      PUBLIC_URL: appUrl,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT_ID,
      OIDC_CLIENT_SECRET: TEST_CLIENT_SECRET,
      OIDC_NAME: 'Test Provider',
      OIDC_ALLOWED_DOMAINS: `${ALLOWED},example.net`,
      // So a test can sign in from an address of its own (X-Forwarded-For), each with its own bound
      // on the failures recorded in full.
      TRUST_PROXY: 'loopback',
    },
  });
});
afterAll(() => provider?.stop());

let addresses = 0;
/** An address of the test's own (TEST-NET-3). */
const newAddress = () => `203.0.113.${++addresses}`;

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2, 10)}`;

/** The signed-in account's id, as GET /api/auth/session answers it; null when signed out. */
async function sessionOf(app: Browser): Promise<string | null> {
  const { user } = (await (await app.fetch('/api/auth/session')).json()) as { user?: { id?: string } };
  return user?.id ?? null;
}

/** The audit records of `action` about `targetId`, oldest first. */
const recordsOf = (action: string, targetId: string) =>
  db().auditEvent.findMany({ where: { action, targetId }, orderBy: { seq: 'asc' }, select: { actorName: true, actorId: true, after: true, clientAddress: true } });

describe('who may come in', () => {
  it('a first sign-in from an allowed domain makes a staff account, with its audit records, and signs in to it', async () => {
    const email = `${unique('new')}@${ALLOWED}`;
    const signedIn = await signInThroughProvider(server.url, email);
    expect(signedIn).toMatchObject({ location: '/', refusal: null, signedIn: true });
    const account = await findAccountByEmail(email);
    expect(account).toMatchObject({ email, role: 'staff', disabled: false, hasPassword: false });
    expect(await sessionOf(signedIn.app)).toBe(account!.id);
    const created = await recordsOf('staff.created', account!.id);
    expect(created).toHaveLength(1);
    expect(JSON.parse(created[0].after!)).toMatchObject({ email, role: 'staff', via: 'oidc', issuer: provider.issuer });
    expect(created[0]).toMatchObject({ actorId: account!.id, actorName: email });
    expect((await recordsOf('staff.signed_in', account!.id)).map((record) => JSON.parse(record.after!))).toEqual([{ method: 'oidc' }]);

    // The second time, the same account.
    const again = await signInThroughProvider(server.url, email.toUpperCase().replace(ALLOWED.toUpperCase(), ALLOWED));
    expect(await sessionOf(again.app)).toBe(account!.id);
    expect(await db().user.count({ where: { email } })).toBe(1);
  });

  it('an existing account signs in by its email, whatever its case, with its role', async () => {
    const admin = await newAccount('admin', 'sso-admin');
    const [name, domain] = admin.email.split('@');
    const signedIn = await signInThroughProvider(server.url, `${name.toUpperCase()}@${domain.toUpperCase()}`);
    expect(signedIn).toMatchObject({ location: '/', signedIn: true });
    expect(await sessionOf(signedIn.app)).toBe(admin.id);
    // An admin's page: the role came with it.
    expect((await signedIn.app.fetch('/staff')).status).toBe(200);
    expect((await recordsOf('staff.signed_in', admin.id)).map((record) => JSON.parse(record.after!))).toEqual([{ method: 'oidc' }]);
  });

  it('a new email from a domain not in the list is refused, and no account is made', async () => {
    const email = `${unique('stranger')}@elsewhere.example.com`;
    const refused = await signInThroughProvider(server.url, email);
    expect(refused).toMatchObject({ location: '/login?error=OidcDomainNotAllowed', signedIn: false });
    expect(await findAccountByEmail(email)).toBeNull();
    const [record] = await recordsOf('staff.sign_in_failed', email);
    expect(JSON.parse(record.after!)).toEqual({ method: 'oidc', reason: 'no account, and the domain is not allowed' });
    expect(record.clientAddress).toBe('127.0.0.1');
  });

  it('an email the provider has not verified is refused, even for an existing account', async () => {
    const member = await newAccount('staff', 'unverified');
    const refused = await signInThroughProvider(server.url, `${UNVERIFIED}${member.email}`);
    expect(refused).toMatchObject({ location: '/login?error=OidcEmailNotVerified', signedIn: false });
    const newcomer = `${unique('newcomer')}@${ALLOWED}`;
    expect(await signInThroughProvider(server.url, `${UNVERIFIED}${newcomer}`)).toMatchObject({ refusal: 'OidcEmailNotVerified', signedIn: false });
    expect(await findAccountByEmail(newcomer)).toBeNull();
  });

  it('a disabled account is refused', async () => {
    const member = await newAccount('staff', 'disabled');
    await disableAccount(member.id, OPERATOR_COMMAND);
    const refused = await signInThroughProvider(server.url, member.email);
    expect(refused).toMatchObject({ location: '/login?error=OidcAccountDisabled', signedIn: false });
    const [record] = await recordsOf('staff.sign_in_failed', member.id);
    expect(JSON.parse(record.after!)).toEqual({ method: 'oidc', reason: 'account disabled' });
  });

  it('a person who cancels at the provider is sent back refused, in words', async () => {
    const refused = await signInThroughProvider(server.url, `${unique('cancel')}@${ALLOWED}`, { cancel: true, address: newAddress() });
    expect(refused).toMatchObject({ location: '/login?error=OidcProviderRefused', signedIn: false });
    const page = await (await refused.app.fetch(refused.location)).text();
    expect(page).toContain('Test Provider did not sign you in. Try again, or ask your IT team if it keeps refusing.');
  });
});

describe('answers that do not belong to this sign-in', () => {
  it('a tampered state is refused before the code is traded, and the page says to try again', async () => {
    const issued = provider.tokensIssued;
    const email = `${unique('state')}@${ALLOWED}`;
    const address = newAddress();
    const refused = await signInThroughProvider(server.url, email, { address, editCallback: (url) => url.searchParams.has('state') && url.searchParams.set('state', `${url.searchParams.get('state')}x`) });
    expect(refused).toMatchObject({ location: '/login?error=OidcTryAgain', signedIn: false });
    expect(provider.tokensIssued).toBe(issued);
    expect(await findAccountByEmail(email)).toBeNull();
    const page = await (await refused.app.fetch(refused.location)).text();
    expect(page).toContain('The answer from Test Provider did not match this sign-in, so it was refused. Start again with the button.');
    const [record] = await db().auditEvent.findMany({ where: { action: 'staff.sign_in_failed', clientAddress: address } });
    expect(record).toMatchObject({ targetId: '(no verified ID token)' });
    expect(JSON.parse(record.after!)).toEqual({ method: 'oidc', reason: expect.stringMatching(/state mismatch/) });
  });

  it('a callback with no sign-in started in this browser is refused', async () => {
    const stranger = browser(server.url);
    const answer = await stranger.fetch('/api/auth/callback/oidc?code=made-up&state=made-up');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/login?error=OidcTryAgain');
  });

  it.each<[Tamper, RegExp]>([
    ['wrong-signature', /signature/i],
    ['wrong-audience', /aud/i],
    ['expired', /expired|exp/i],
    ['no-nonce', /nonce/i],
  ])('a forged ID token (%s) is refused, and no session is made', async (tamper, reason) => {
    const member = await newAccount('staff', `forged-${tamper}`);
    provider.tamper = tamper;
    try {
      const issued = provider.tokensIssued;
      const address = newAddress();
      const refused = await signInThroughProvider(server.url, member.email, { address });
      expect(provider.tokensIssued).toBe(issued + 1);
      expect(refused).toMatchObject({ location: '/login?error=OidcTryAgain', signedIn: false });
      expect(await sessionOf(refused.app)).toBeNull();
      const records = await db().auditEvent.findMany({ where: { action: 'staff.sign_in_failed', clientAddress: address } });
      expect(records).toHaveLength(1);
      expect(records[0].targetId).toBe('(no verified ID token)');
      expect(JSON.parse(records[0].after!)).toEqual({ method: 'oidc', reason: expect.stringMatching(reason) });
    } finally {
      provider.tamper = null;
    }
    // The same account through the provider's own token signs in.
    expect((await signInThroughProvider(server.url, member.email)).signedIn).toBe(true);
  });
});

describe('sessions made through the provider end as password sessions do', () => {
  it.each([
    ['disabling the account', (id: string) => disableAccount(id, OPERATOR_COMMAND)],
    ['changing its role', (id: string) => setAccountRole(id, 'admin', OPERATOR_COMMAND)],
    ['"Sign out everywhere"', (id: string) => endSessions(id, 'sign-out-everywhere', OPERATOR_COMMAND)],
  ])('%s', async (_, change) => {
    const member = await newAccount('staff', 'ends');
    const { app } = await signInThroughProvider(server.url, member.email);
    expect(await sessionOf(app)).toBe(member.id);
    await change(member.id);
    // The server's cache of the account's state lives half a second; within a second it has ended.
    await expect.poll(() => sessionOf(app), { timeout: 1500, interval: 100 }).toBeNull();
  });
});

describe('a second factor the store requires', () => {
  it('is asked of a password sign-in, and not of one through the provider, which never asks for the code', async () => {
    const member = await newAccount('staff', 'factor-rule');
    await setSecondFactorRequirement('everyone', OPERATOR_COMMAND);
    try {
      const byPassword = await signIn(server.url, member);
      // The rule is read through the server's short cache of account state.
      await expect
        .poll(async () => (await byPassword.fetch('/')).headers.get('location'), { timeout: 1500, interval: 100 })
        .toMatch(/^\/enrol\?/);
      const throughProvider = await signInThroughProvider(server.url, member.email);
      expect(await sessionOf(throughProvider.app)).toBe(member.id);
      const home = await throughProvider.app.fetch('/');
      expect(home.status).toBe(200);
      expect(home.headers.get('location')).toBeNull();
    } finally {
      await setSecondFactorRequirement('off', OPERATOR_COMMAND);
    }
  });
});

describe('password sign-in for admins only', () => {
  it('refuses staff passwords on the server, ends their password sessions, keeps admins and the provider', async () => {
    const admin = await newAccount('admin', 'policy-admin');
    const member = await newAccount('staff', 'policy-staff');
    const asAdmin = await signIn(server.url, admin);
    const memberByPassword = await signIn(server.url, member);
    expect(await sessionOf(memberByPassword)).toBe(member.id);

    const turnedOn = await callAction(asAdmin, '/staff', 'setPasswordSignInAction', true);
    expect(turnedOn).toMatchObject({ status: 200, value: { ok: true } });
    try {
      const [record] = await db().auditEvent.findMany({ where: { action: 'setting.changed', targetId: 'password-sign-in' }, orderBy: { seq: 'desc' }, take: 1 });
      expect(record).toMatchObject({ actorId: admin.id, targetType: 'setting' });
      expect(JSON.parse(record.before!)).toEqual({ value: 'everyone' });
      expect(JSON.parse(record.after!)).toEqual({ value: 'admins' });

      await expect.poll(() => sessionOf(memberByPassword), { timeout: 1500, interval: 100 }).toBeNull();
      const refused = await signInOn(server, member.email, member.password);
      expect(refused.session).toBeNull();
      expect(new URL(refused.url!, server.url).searchParams.get('error')).toBe('PasswordSignInAdminsOnly');
      expect((await signInOn(server, admin.email, admin.password)).session).not.toBeNull();
      expect(await sessionOf(asAdmin)).toBe(admin.id);
      const throughProvider = await signInThroughProvider(server.url, member.email);
      expect(await sessionOf(throughProvider.app)).toBe(member.id);

      // The sign-in page leads with the provider and says why the password form is not for staff.
      const page = await (await fetch(`${server.url}/login`)).text();
      expect(page).toContain('Staff sign in with Test Provider: an admin has turned password sign-in off for everyone but admins.');
      expect(page.indexOf('Sign in with Test Provider')).toBeLessThan(page.indexOf('Admins: sign in with a password'));
      // Staff cannot change it back.
      const byStaff = await callAction(throughProvider.app, '/staff', 'setPasswordSignInAction', false);
      expect(byStaff.value).toMatchObject({ ok: false });
    } finally {
      expect(await callAction(asAdmin, '/staff', 'setPasswordSignInAction', false)).toMatchObject({ value: { ok: true } });
    }
    expect((await signInOn(server, member.email, member.password)).session).not.toBeNull();
  });
});

describe('without a provider configured', () => {
  it("the provider's endpoints are not there, and the sign-in page has no button", async () => {
    const shared = sharedServer();
    expect((await request(shared, '/api/auth/callback/oidc?code=x&state=y')).status).toBe(404);
    const { status, url } = await pressProviderButton(browser(shared.url));
    expect({ status, url }).toEqual({ status: 404, url: null });
    expect(await (await fetch(`${shared.url}/login`)).text()).not.toContain('Sign in with');
    // And with one, the button is there.
    expect(await (await fetch(`${server.url}/login`)).text()).toContain('Sign in with Test Provider');
  });
});
