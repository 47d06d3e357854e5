import { startReceiver } from '../test/support/receiver';
import { addMember, anotherBrowser, setPasswordAndSignIn } from './support/accounts';
import { seriousViolations } from './support/axe';
import { codeFor, enrol, requireSecondFactorOf } from './support/second-factor';
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';
import { chooseCsv, csvOf, marker, seedPlants } from './support/plants';
import { MEMBER_EMAIL, MEMBER_PASSWORD } from './support/staff';
import { addEndpointWithDeliveredTestEvent, deleteEndpoint } from './support/webhooks';

// Every page, in every state, one journey each, so each fits its own time limit.
test.describe('axe finds no serious or critical violations', () => {
  test('on the sign-in page, and with its refusal shown', async ({ page }) => {
    await page.goto('/login');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(alertOf(page)).toHaveText('Wrong email or password.');
    expect(await seriousViolations(page)).toEqual([]);

    // A refusal sent back from the identity provider, in words.
    await page.goto('/login?error=OidcTryAgain');
    await expect(alertOf(page)).toContainText('did not match this sign-in');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the forgot-password page of a server that sends no email', async ({ page }) => {
    await page.goto('/forgot-password');
    await expect(page.getByText('This server does not send email.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the add form, and with a missing name', async ({ page, signIn }) => {
    await signIn('/');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('ID').fill(uniqueId());
    await page.getByRole('button', { name: 'Add plant' }).click();
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the tokens page with a new token shown', async ({ page, signIn }) => {
    await signIn('/tokens');
    await page.getByLabel('Name').fill('axe');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'created' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the catalogue: the list, an edit with a refusal, the delete question, an empty search', async ({ page, signIn }) => {
    await signIn('/');
    const m = marker();
    await seedPlants(page, [{ id: uniqueId(), name: `${m} Axe fern`, tag: 'fern' }]);
    await page.goto(`/catalogue?q=${m}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: `Edit ${m} Axe fern` }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('dialog').getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `Delete ${m} Axe fern` }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`/catalogue?q=${m}-none`);
    await expect(page.getByText('No plants match')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the import: the page, the preview with a problem, then the results', async ({ page, signIn }) => {
    await signIn('/import');
    expect(await seriousViolations(page)).toEqual([]);
    const m = marker();
    await chooseCsv(page, {
      name: 'axe.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csvOf([[uniqueId(), `${m} Imported`, ''], ['x', '', '']])),
    });
    await expect(page.getByRole('button', { name: 'Import 1 plant' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Import 1 plant' }).click();
    await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the API reference as the server renders it, then with the explorer (Swagger UI) open', async ({ page, signIn }) => {
    // Swagger UI's 1.5 MB bundle, then axe over the thousands of nodes it renders: the heaviest page there is.
    test.setTimeout(90_000);
    await signIn('/docs');
    await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Open the interactive explorer' }).click();
    await expect(page.locator('.swagger-host .opblock').first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the staff page, with a new member and the reset question', async ({ page, signIn }) => {
    await signIn('/staff');
    expect(await seriousViolations(page)).toEqual([]);
    const email = `axe-${Date.now()}@example.com`;
    await addMember(page, email);
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: `Reset password of ${email}` }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await row.getByRole('button', { name: 'Cancel' }).click();
  });

  test('on the account page with a refused password change', async ({ page, signIn }) => {
    await signIn('/account');
    await page.getByLabel('Current password').fill('wrong');
    await page.getByLabel('New password').fill('whatever it may be');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(alertOf(page)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the set-password page: a refused password, and a link that is not valid', async ({ page, signIn, browser, baseURL }) => {
    await signIn('/staff');
    const link = await addMember(page, `axe-link-${Date.now()}@example.com`);
    const stranger = await browser.newContext({ baseURL });
    const linkPage = await stranger.newPage();
    await linkPage.goto(link);
    await linkPage.getByLabel('New password').fill('short');
    await linkPage.getByRole('button', { name: 'Set password' }).click();
    await expect(linkPage.locator('#password-error')).not.toBeEmpty();
    expect(await seriousViolations(linkPage)).toEqual([]);
    await linkPage.goto('/set-password#not-a-link');
    await expect(alertOf(linkPage)).toContainText('This link is not valid');
    expect(await seriousViolations(linkPage)).toEqual([]);
    await stranger.close();
  });

  test("on the admins-only refusal a staff member sees", async ({ page, consoleErrors }) => {
    consoleErrors.allow(/status of 403/);
    await page.goto('/login');
    await signInThroughForm(page, MEMBER_EMAIL, MEMBER_PASSWORD);
    await expect(page).toHaveURL('/');
    await page.goto('/staff');
    await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('on the webhooks page at 1280 px, with an endpoint and its delivery', async ({ page, signIn }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const receiver = await startReceiver();
    // A path of its own, so that this endpoint's card is the only one of its name.
    const url = `${receiver.url}?axe=${Date.now()}`;
    try {
      await signIn('/webhooks');
      await addEndpointWithDeliveredTestEvent(page, receiver, url);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await deleteEndpoint(page, url);
      await receiver.close();
    }
  });

  test('on the backups page, listing a backup', async ({ page, signIn }) => {
    await signIn('/backups');
    await expect(page.getByRole('link', { name: /^Download plants-/ }).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test("on the second factor: its set-up with a refused code, the recovery codes, the sign-in's second step with a refusal, and /enrol", async ({ page, signIn, browser, baseURL, consoleErrors }) => {
    test.setTimeout(120_000);
    consoleErrors.allow(/status of 401/);
    await signIn('/');
    const password = 'an accessible second factor';
    const adminEmail = `axe-admin-${Date.now()}@example.com`;
    const adminLink = await addMember(page, adminEmail, 'Admin');
    const newcomerEmail = `axe-newcomer-${Date.now()}@example.com`;
    const newcomerLink = await addMember(page, newcomerEmail);
    const admin = await anotherBrowser(browser, baseURL!);
    await setPasswordAndSignIn(admin.page, adminLink, adminEmail, password);
    await admin.page.goto('/account');
    await admin.page.getByRole('button', { name: 'Set up a second factor' }).click();
    await admin.page.getByLabel('Code the app shows now').fill('abc');
    await admin.page.getByRole('button', { name: 'Turn on' }).click();
    await expect(alertOf(admin.page)).toBeVisible();
    expect(await seriousViolations(admin.page)).toEqual([]);
    await admin.page.reload();
    const { secret } = await enrol(admin.page);
    expect(await seriousViolations(admin.page)).toEqual([]);

    const second = await anotherBrowser(browser, baseURL!);
    await second.page.goto('/login');
    await signInThroughForm(second.page, adminEmail, password);
    await expect(second.page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    expect(await seriousViolations(second.page)).toEqual([]);
    await second.page.getByLabel('Code', { exact: true }).fill(codeFor(secret) === '000000' ? '111111' : '000000');
    await second.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(alertOf(second.page)).toBeVisible();
    expect(await seriousViolations(second.page)).toEqual([]);
    await second.context.close();

    await requireSecondFactorOf(admin.page, 'Everyone', 'Saved: a second factor is required of everyone.');
    try {
      expect(await seriousViolations(admin.page)).toEqual([]);
      const newcomer = await anotherBrowser(browser, baseURL!);
      await newcomer.page.goto(newcomerLink);
      await newcomer.page.getByLabel('New password').fill(password);
      await newcomer.page.getByRole('button', { name: 'Set password' }).click();
      await newcomer.page.getByRole('link', { name: 'Sign in' }).click();
      await signInThroughForm(newcomer.page, newcomerEmail, password);
      await expect(newcomer.page).toHaveURL('/enrol?callbackUrl=%2F');
      expect(await seriousViolations(newcomer.page)).toEqual([]);
      await newcomer.context.close();
    } finally {
      await requireSecondFactorOf(admin.page, 'Nobody (each person chooses)', 'Saved: nobody is required to have a second factor.');
      await admin.context.close();
    }
  });
});
