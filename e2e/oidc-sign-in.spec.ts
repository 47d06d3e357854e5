// Signing in with the store's identity provider, in Chromium, against a real OpenID provider (the
// e2e server's: oidc-provider with its own sign-in and consent pages, e2e/support/serve.ts): the
// first sign-in of an allowed domain makes the account; an existing account signs in, whatever the
// case of its email; a domain not allowed and a disabled account are refused in words; and an answer
// whose `state` was tampered with is refused, with the page saying to start again.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { addMember, anotherBrowser } from './support/accounts';
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';
import { MEMBER_EMAIL, MEMBER_PASSWORD, OIDC_ALLOWED_DOMAIN, OIDC_NAME } from './support/staff';

const BUTTON = `Sign in with ${OIDC_NAME}`;

test.beforeEach(({ consoleErrors }) => {
  // The provider's development pages load a web font from the internet, which this machine cannot reach.
  consoleErrors.allow(/fonts\.googleapis\.com|net::ERR_/);
});

/** Presses the sign-in page's button, and signs in and consents as `login` on the provider's own pages. */
async function signInAtProvider(page: Page, login: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: BUTTON }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('the sign-in page offers the provider, by its name', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: BUTTON })).toBeEnabled();
});

test('the first sign-in from an allowed domain makes a staff account and signs in to it', async ({ page, browser, baseURL }) => {
  const email = `first-${uniqueId()}@${OIDC_ALLOWED_DOMAIN}`;
  await signInAtProvider(page, email);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Add a plant' })).toBeVisible();
  await page.goto('/account');
  await expect(page.getByText(`Signed in as ${email} (staff).`)).toBeVisible();

  // An admin sees the new account on /staff.
  const admin = await anotherBrowser(browser, baseURL!);
  await admin.page.goto('/login?callbackUrl=%2Fstaff');
  await signInThroughForm(admin.page);
  const row = admin.page.getByRole('row', { name: new RegExp(email) });
  await expect(row).toContainText('Staff');
  await expect(row).toContainText('Active, no password');
  await admin.context.close();
});

test('an existing account signs in with its role, whatever the case of its email at the provider', async ({ page }) => {
  const [name, domain] = MEMBER_EMAIL.split('@');
  await signInAtProvider(page, `${name[0].toUpperCase()}${name.slice(1)}@${domain.toUpperCase()}`);
  await expect(page).toHaveURL('/');
  await page.goto('/account');
  await expect(page.getByText(`Signed in as ${MEMBER_EMAIL} (staff).`)).toBeVisible();
});

test('a domain that is not allowed is refused, in words', async ({ page }) => {
  await signInAtProvider(page, `stranger-${uniqueId()}@elsewhere.example.com`);
  await expect(page).toHaveURL('/login?error=OidcDomainNotAllowed');
  await expect(alertOf(page)).toHaveText('There is no staff account for this email, and its domain may not make one. Ask an admin to add you.');
  await expect(page.getByRole('button', { name: BUTTON })).toBeEnabled();
});

test('a disabled account is refused, in words', async ({ page, signIn, browser, baseURL }) => {
  await signIn('/staff');
  const email = `leaver-${uniqueId()}@example.com`;
  await addMember(page, email);
  await page.getByRole('button', { name: `Disable ${email}` }).click();
  await page.getByRole('button', { name: 'Yes, disable' }).click();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Disabled');

  const other = await anotherBrowser(browser, baseURL!);
  await signInAtProvider(other.page, email);
  await expect(other.page).toHaveURL('/login?error=OidcAccountDisabled');
  await expect(alertOf(other.page)).toHaveText('This account is disabled. Ask an admin to enable it.');
  await other.context.close();
});

test('an answer whose state was tampered with is refused, and the page says to start again', async ({ page }) => {
  const email = `tampered-${uniqueId()}@${OIDC_ALLOWED_DOMAIN}`;
  await page.goto('/login');
  await page.getByRole('button', { name: BUTTON }).click();
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The consent's answer is followed through the provider's redirects here (Chromium follows a
  // redirect without asking the route again), and its redirect back to the store has its `state`
  // changed on the way. page.request shares the browser's cookies.
  const provider = (url: URL) => url.hostname === '127.0.0.1';
  await page.route(provider, async (route) => {
    let response = await route.fetch({ maxRedirects: 0 });
    while (response.headers().location && provider(new URL(response.headers().location))) {
      response = await page.request.get(response.headers().location, { maxRedirects: 0 });
    }
    const headers = response.headers();
    const back = headers.location?.includes('/api/auth/callback/oidc') ? new URL(headers.location) : null;
    // Only a state that is there is changed: a sign-in sent without one must fail this test.
    if (back?.searchParams.has('state')) {
      back.searchParams.set('state', `${back.searchParams.get('state')}-changed`);
      headers.location = back.href;
    }
    await route.fulfill({ response, headers });
  });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL('/login?error=OidcTryAgain');
  await expect(alertOf(page)).toHaveText(`The answer from ${OIDC_NAME} did not match this sign-in, so it was refused. Start again with the button.`);
  // Nothing was made of it: no session.
  await page.goto('/account');
  await expect(page).toHaveURL('/login?callbackUrl=%2Faccount');

  // Started again, untouched, it signs in (the provider remembers the person: straight back).
  await page.unroute(provider);
  await page.goto('/login');
  await page.getByRole('button', { name: BUTTON }).click();
  await expect(page).toHaveURL('/');
});

test('an admin keeps password sign-in for admins only: the sign-in page leads with the provider and says why', async ({ page, signIn, browser, baseURL }) => {
  await signIn('/staff');
  const policy = page.getByRole('region', { name: 'Sign-in' });
  await expect(policy).toContainText(`Everyone may sign in with a password or with ${OIDC_NAME}.`);
  await policy.getByRole('button', { name: 'Password sign-in for admins only' }).click();
  await policy.getByRole('button', { name: 'Yes, admins only' }).click();
  await expect(policy).toContainText(`Password sign-in is for admins only: staff sign in with ${OIDC_NAME}.`);
  try {
    const staff = await anotherBrowser(browser, baseURL!);
    await staff.page.goto('/login');
    const lead = staff.page.getByRole('heading', { level: 1 });
    await expect(lead).toHaveText('Sign in');
    await expect(staff.page.getByText(`Staff sign in with ${OIDC_NAME}: an admin has turned password sign-in off for everyone but admins.`)).toBeVisible();
    // The provider's button comes first, then the admins' password form.
    const buttons = await staff.page.getByRole('button').allTextContents();
    expect(buttons.indexOf(BUTTON)).toBeLessThan(buttons.indexOf('Sign in'));
    await expect(staff.page.getByRole('heading', { name: 'Admins: sign in with a password' })).toBeVisible();
    const axe = await new AxeBuilder({ page: staff.page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id)).toEqual([]);
    // The server refuses a staff member's password, whatever the page shows.
    await signInThroughForm(staff.page, MEMBER_EMAIL, MEMBER_PASSWORD);
    await expect(alertOf(staff.page)).toHaveText('Password sign-in is for admins only. Use the single sign-on button instead.');
    await staff.context.close();
  } finally {
    await page.goto('/staff');
    await policy.getByRole('button', { name: 'Let staff use passwords again' }).click();
    await policy.getByRole('button', { name: 'Yes, allow passwords' }).click();
    await expect(policy).toContainText(`Everyone may sign in with a password or with ${OIDC_NAME}.`);
  }
});
