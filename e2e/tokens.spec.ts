import { alertOf, expect, test } from './support/fixtures';

test('create a token, use it, see it listed without its secret, revoke it, see it refused', async ({ page, signIn, baseURL }) => {
  await signIn('/tokens');
  const name = `ci ${Date.now()}`;
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Expires').selectOption('30');
  await page.getByRole('button', { name: 'Create token' }).click();

  const shown = page.getByRole('status').filter({ hasText: `Token “${name}” created.` });
  await expect(shown).toContainText('it will not be shown again');
  await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
  const token = (await shown.getByLabel('New token').textContent())!;
  expect(token).toMatch(/^pst_[0-9A-Za-z]{49}$/);

  // A program uses it, with fetch, exactly as the README shows.
  const useToken = () =>
    page.evaluate(
      async ([url, secret]) => {
        const response = await fetch(`${url}/plants?limit=1`, { headers: { authorization: `Bearer ${secret}` } });
        return { status: response.status, body: await response.json() };
      },
      [baseURL!, token] as const,
    );
  expect((await useToken()).status).toBe(200);

  // Listed with its display prefix and dates; the secret never again.
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(token.slice(0, 12));
  await expect(row).toContainText(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  expect(await page.content()).not.toContain(token);

  // Revoking asks first; cancelling changes nothing.
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await row.getByRole('button', { name: 'Cancel' }).click();
  expect((await useToken()).status).toBe(200);

  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(row).toContainText('Programs using it stop working at once.');
  await row.getByRole('button', { name: 'Yes, revoke' }).click();
  await expect(row).toContainText('Revoked');
  expect(await useToken()).toEqual({ status: 401, body: { error: 40104, message: 'The API token has been revoked' } });
});

test('an empty token name is refused', async ({ page, signIn }) => {
  await signIn('/tokens');
  await page.getByLabel('Name').fill('   ');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(alertOf(page)).toHaveText('name: must not be empty');
});
