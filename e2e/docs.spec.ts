import { expect, test } from './support/fixtures';

test('the API reference renders the published document and is in the navigation', async ({ page, signIn }) => {
  await signIn('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL('/docs');
  const reference = page.locator('.swagger-host');
  await expect(reference.getByText('POST/plants', { exact: false }).first()).toBeVisible();
  await expect(reference).toContainText('/plants/{id}');
  await expect(reference.getByRole('button', { name: 'Authorize' })).toBeVisible();
});
