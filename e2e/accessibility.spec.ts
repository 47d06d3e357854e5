import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { alertOf, expect, test, uniqueId } from './support/fixtures';

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

  await page.goto('/docs');
  await expect(page.locator('.swagger-host .information-container')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
