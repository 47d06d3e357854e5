import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { addMember } from './support/accounts';
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';
import { csvOf, marker, seedPlants } from './support/plants';
import { MEMBER_EMAIL, MEMBER_PASSWORD } from './support/staff';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test('axe finds no serious or critical violations on any page, in any state', async ({ page, signIn }) => {
  await page.goto('/login');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(alertOf(page)).toHaveText('Wrong email or password.');
  expect(await seriousViolations(page)).toEqual([]);

  await signIn('/');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('ID').fill(uniqueId());
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/tokens');
  await page.getByLabel('Name').fill('axe');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'created' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The catalogue: the list, an edit with a refusal, the delete question, an empty search.
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

  // Import: the preview with a problem, then the results.
  await page.goto('/import');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('CSV file').setInputFiles({
    name: 'axe.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csvOf([[uniqueId(), `${m} Imported`, ''], ['x', '', '']])),
  });
  await expect(page.getByRole('button', { name: 'Import 1 plant' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Import 1 plant' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The API reference as the server renders it, then with the explorer (Swagger UI) open.
  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Open the interactive explorer' }).click();
  await expect(page.locator('.swagger-host .opblock').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('axe finds none on the account pages either: staff, backups, account, set-password, and the admins-only refusal', async ({ page, signIn, browser, baseURL, consoleErrors }) => {
  consoleErrors.allow(/status of 403/);
  await signIn('/backups');
  await expect(page.getByRole('link', { name: /^Download plants-/ }).first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.goto('/staff');
  expect(await seriousViolations(page)).toEqual([]);
  const email = `axe-${Date.now()}@example.com`;
  const link = await addMember(page, email);
  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: `Reset password of ${email}` }).click();
  expect(await seriousViolations(page)).toEqual([]);
  await row.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/account');
  await page.getByLabel('Current password').fill('wrong');
  await page.getByLabel('New password').fill('whatever it may be');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(alertOf(page)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

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

  await linkPage.goto('/login');
  await signInThroughForm(linkPage, MEMBER_EMAIL, MEMBER_PASSWORD);
  await expect(linkPage).toHaveURL('/');
  await linkPage.goto('/staff');
  await expect(linkPage.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  expect(await seriousViolations(linkPage)).toEqual([]);
  await stranger.close();
});
