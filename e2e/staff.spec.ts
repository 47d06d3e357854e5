import { addMember, anotherBrowser, setPasswordAndSignIn } from './support/accounts';
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';
import { MEMBER_EMAIL, MEMBER_PASSWORD } from './support/staff';

const newEmail = (label: string) => `${label}-${Date.now()}@example.com`;

test('an admin adds a staff member, who sets a password through the one-time link and signs in', async ({ page, signIn, browser, baseURL }) => {
  await signIn('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL('/staff');
  const email = newEmail('fern');
  const link = await addMember(page, email);
  expect(link).toMatch(new RegExp(`^${baseURL}/set-password#[\\w-]{43}$`));
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Waiting for a password');

  const member = await anotherBrowser(browser, baseURL!);
  // A password the rules refuse leaves the link usable.
  await member.page.goto(link);
  await member.page.getByLabel('New password').fill('too short');
  await member.page.getByRole('button', { name: 'Set password' }).click();
  await expect(member.page.locator('#password-error')).toHaveText('New password: must be at least 12 characters');
  await expect(member.page.getByLabel('New password')).toHaveAttribute('aria-invalid', 'true');
  await setPasswordAndSignIn(member.page, link, email, 'a fern in the shade');
  // Staff see no Staff link.
  await expect(member.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' })).toHaveCount(0);

  // The link worked once.
  await member.page.goto(link);
  await expect(alertOf(member.page)).toHaveText('This link has already been used. Ask an admin for a new one if you need to set your password again.');
  await member.context.close();

  await page.reload();
  await expect(row).toContainText('Active');
  await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
});

test('a missing or cut-short link is told at once, without asking the server; a well-formed unknown one is asked about', async ({ page }) => {
  const INVALID = 'This link is not valid: check that it was copied whole, or ask an admin for a new one.';
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.headers()['next-action']) asked.push(request.url());
  });
  await page.goto('/set-password');
  await expect(alertOf(page)).toHaveText(INVALID);
  await page.goto('/set-password#only-part-of-a-link');
  await expect(alertOf(page)).toHaveText(INVALID);
  expect(asked).toHaveLength(0);

  // The right shape, but no such link: only the server can tell, and says it in the same words.
  const asking = page.waitForRequest((request) => request.method() === 'POST' && !!request.headers()['next-action']);
  await page.goto(`/set-password#${'A'.repeat(43)}`);
  await asking;
  await expect(alertOf(page)).toHaveText(INVALID);
  expect(asked).toHaveLength(1);
});

test('a staff member cannot open /staff', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 403/);
  await page.goto('/login');
  await signInThroughForm(page, MEMBER_EMAIL, MEMBER_PASSWORD);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Staff' })).toHaveCount(0);
  const response = await page.goto('/staff');
  expect(response!.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add staff member' })).toHaveCount(0);
});

test('an admin disables a member, and the member\'s open page fails its next API call with a clear message', async ({ page, signIn, browser, baseURL }) => {
  await signIn('/');
  const email = newEmail('leaving');
  const link = await addMember(page, email);
  const member = await anotherBrowser(browser, baseURL!);
  await setPasswordAndSignIn(member.page, link, email, 'moving on to other gardens');
  // The member's page is open, its API token fresh.
  await member.page.getByLabel('ID').fill(uniqueId());
  await member.page.getByLabel('Name').fill('Before');
  await member.page.getByRole('button', { name: 'Add plant' }).click();
  await expect(member.page.getByRole('status')).toContainText('Added “Before”');

  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: `Disable ${email}` }).click();
  await expect(row).toContainText('They are signed out at once and their API tokens stop working.');
  await row.getByRole('button', { name: 'Yes, disable' }).click();
  await expect(row.getByRole('cell').nth(2)).toHaveText('Disabled');

  await member.page.getByLabel('ID').fill(uniqueId());
  await member.page.getByLabel('Name').fill('After');
  await member.page.getByRole('button', { name: 'Add plant' }).click();
  await expect(alertOf(member.page)).toHaveText('This account has been disabled: its tokens and sessions do not work until an admin enables it');
  await member.page.reload();
  await expect(member.page).toHaveURL('/login?callbackUrl=%2F');
  await signInThroughForm(member.page, email, 'moving on to other gardens');
  await expect(alertOf(member.page)).toHaveText('This account is disabled. Ask an admin to enable it.');
  await member.context.close();
});

test('a password change: the old password stops working, the new one signs in', async ({ page, signIn, browser, baseURL }) => {
  await signIn('/');
  const email = newEmail('changer');
  const link = await addMember(page, email);
  const member = await anotherBrowser(browser, baseURL!);
  const { page: memberPage } = member;
  await setPasswordAndSignIn(memberPage, link, email, 'the first of my passwords');

  await memberPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(memberPage.getByRole('heading', { name: 'Your account' })).toBeVisible();
  await memberPage.getByLabel('Current password').fill('not my password at all');
  await memberPage.getByLabel('New password').fill('the second of my passwords');
  await memberPage.getByRole('button', { name: 'Change password' }).click();
  await expect(alertOf(memberPage)).toHaveText('The current password is not right.');

  await memberPage.getByLabel('Current password').fill('the first of my passwords');
  await memberPage.getByLabel('New password').fill('qwertyuiop123');
  await memberPage.getByRole('button', { name: 'Change password' }).click();
  await expect(alertOf(memberPage)).toHaveText('New password: is one of the most common passwords, which are tried first: choose another');

  await memberPage.getByLabel('Current password').fill('the first of my passwords');
  await memberPage.getByLabel('New password').fill('the second of my passwords');
  await memberPage.getByRole('button', { name: 'Change password' }).click();
  await expect(memberPage.getByRole('status')).toContainText('Password changed. Every session of your account has ended, this one too.');
  await memberPage.getByRole('link', { name: 'Sign in with your new password' }).click();
  await expect(memberPage).toHaveURL('/login?callbackUrl=%2Faccount');
  await signInThroughForm(memberPage, email, 'the first of my passwords');
  await expect(alertOf(memberPage)).toHaveText('Wrong email or password.');
  await signInThroughForm(memberPage, email, 'the second of my passwords');
  await expect(memberPage).toHaveURL('/account');
  await member.context.close();
});

test('the staff, tokens and account pages fit 375 px, and staff are managed from the keyboard', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn('/staff');
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  for (const path of ['/staff', '/tokens', '/account']) {
    await page.goto(path);
    expect(await overflow(), path).toBeLessThanOrEqual(0);
  }

  await page.goto('/staff');
  const email = newEmail('keys');
  await page.getByLabel('Email', { exact: true }).focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Role', { exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Add staff member' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: `Account for ${email} created.` })).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);

  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: `Change role of ${email}` }).focus();
  await page.keyboard.press('Enter');
  // The confirming button takes the focus, so Enter answers the question.
  await expect(row.getByRole('button', { name: 'Yes, make admin' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row.getByRole('cell').nth(1)).toHaveText('Admin');
});
