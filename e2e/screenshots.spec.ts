// `npm run screenshots` refreshes the README's pictures from the real pages. Not part of npm test.
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';

const shot = (name: string) => ({ path: `docs/screenshots/${name}.png`, fullPage: true });

test.use({ viewport: { width: 900, height: 700 } });

test('README screenshots', async ({ page }) => {
  await page.goto('/login');
  await signInThroughForm(page, 'gardener@example.com', 'wrong password');
  await expect(alertOf(page)).toBeVisible();
  await page.screenshot(shot('sign-in'));

  await signInThroughForm(page);
  await expect(page).toHaveURL('/');
  for (const [name, tag] of [['Monstera deliciosa', 'aroid'], ['Aloe vera', 'succulent'], ['Boston fern', '']]) {
    await page.getByLabel('ID').fill(uniqueId());
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Tag').fill(tag);
    await page.getByRole('button', { name: 'Add plant' }).click();
    await expect(page.getByRole('status')).toContainText(name);
  }
  await page.screenshot(shot('add-plant-success'));

  const taken = (await page.getByRole('region', { name: 'Recent plants' }).getByRole('row').nth(1).locator('td').first().textContent())!;
  await page.getByLabel('ID').fill(taken);
  await page.getByLabel('Name').fill('Snake plant');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(alertOf(page)).toBeVisible();
  await page.screenshot(shot('add-plant-error'));

  await page.goto('/tokens');
  await page.getByLabel('Name').fill('inventory sync');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'created' })).toBeVisible();
  await page.screenshot(shot('tokens'));
});
