import type { Page } from '@playwright/test';
import { alertOf, expect, test, uniqueId } from './support/fixtures';
import { apiText, marker, seedPlants } from './support/plants';

const rowsOf = (page: Page) => page.getByRole('region', { name: /^Plants/ }).locator('tbody tr');

async function searchFor(page: Page, q: string, tag = '') {
  await page.getByLabel('Search').fill(q);
  await page.getByLabel('Tag').fill(tag);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test.beforeEach(async ({ signIn }) => {
  await signIn('/catalogue');
});

test('search finds plants by any piece of the name in any case, with the filter in the address and back working', async ({ page }) => {
  const m = marker();
  await seedPlants(page, [
    { id: uniqueId(), name: `${m} Monstera deliciosa`, tag: `aroid-${m}` },
    { id: uniqueId(), name: `${m} Ficus lyrata`, tag: `tree-${m}` },
    { id: uniqueId(), name: `${m} Gartenstraße Farn`, tag: `aroid-${m}` },
  ]);
  await page.goto('/catalogue');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Catalogue' })).toBeVisible();

  await searchFor(page, m.toUpperCase());
  await expect(page).toHaveURL(`/catalogue?q=${m.toUpperCase()}`);
  await expect(rowsOf(page)).toHaveCount(3);
  // Newest first.
  await expect(rowsOf(page).first()).toContainText('Gartenstraße Farn');

  await searchFor(page, `${m} gartenSTRASSE`);
  await expect(rowsOf(page)).toHaveCount(1);
  await searchFor(page, m, `aroid-${m}`);
  await expect(page).toHaveURL(`/catalogue?q=${m}&tag=aroid-${m}`);
  await expect(rowsOf(page)).toHaveCount(2);
  await expect(page.getByRole('region', { name: /^Plants/ })).toContainText(`Plants with names containing “${m}”, with the tag “aroid-${m}”`);

  await page.goBack();
  await expect(page).toHaveURL(/q=/);
  await expect(page.getByLabel('Tag')).toHaveValue('');
  await expect(rowsOf(page)).toHaveCount(1);

  // A shared address shows the same; and an empty result says so.
  await page.goto(`/catalogue?tag=tree-${m}`);
  await expect(rowsOf(page)).toHaveCount(1);
  await expect(page.getByLabel('Tag')).toHaveValue(`tree-${m}`);
  await searchFor(page, `${m} nothing like it`);
  await expect(page.getByText(`No plants match: none has names containing “${m} nothing like it”.`)).toBeVisible();
  await page.getByRole('link', { name: 'Clear the filter' }).click();
  await expect(page).toHaveURL('/catalogue');
  await expect(page.getByLabel('Search')).toHaveValue('');
});

test('pages walk older and newer, keeping the filter', async ({ page }) => {
  const m = marker();
  await seedPlants(page, Array.from({ length: 45 }, (_, index) => ({ id: uniqueId(), name: `${m} Paged ${index}`, tag: `paged-${m}` })));
  await page.goto(`/catalogue?tag=paged-${m}`);
  await expect(rowsOf(page)).toHaveCount(20);
  await expect(rowsOf(page).first()).toContainText('Paged 44');
  await page.getByRole('link', { name: 'Older plants →' }).click();
  await expect(rowsOf(page).first()).toContainText('Paged 24');
  await page.getByRole('link', { name: 'Older plants →' }).click();
  await expect(rowsOf(page)).toHaveCount(5);
  await expect(page.getByRole('link', { name: 'Older plants →' })).toHaveCount(0);
  await page.getByRole('link', { name: '← Newer plants' }).click();
  await expect(rowsOf(page).first()).toContainText('Paged 24');
  await page.getByRole('link', { name: '← Newer plants' }).click();
  await expect(rowsOf(page).first()).toContainText('Paged 44');
  await expect(page).toHaveURL(new RegExp(`tag=paged-${m}`));
});

test('Edit changes the name and tag through the API, and the row shows it', async ({ page }) => {
  const m = marker();
  const id = uniqueId();
  await seedPlants(page, [{ id, name: `${m} Monstra`, tag: 'typo' }]);
  await page.goto(`/catalogue?q=${m}`);

  await page.getByRole('button', { name: `Edit ${m} Monstra` }).click();
  const dialog = page.getByRole('dialog', { name: `Edit ${m} Monstra` });
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await dialog.getByLabel('Name').fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByLabel('Name')).toHaveAccessibleDescription('must not be empty');

  await dialog.getByLabel('Name').fill(`${m} Monstera`);
  await dialog.getByLabel('Tag').fill('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText(`Saved “${m} Monstera”.`);
  await expect(rowsOf(page).first()).toContainText(`${m} Monstera`);
  await expect(rowsOf(page).first()).toContainText('none');
  expect((await apiText(page, `/plants/${id}`)).text).toBe(`{"id":${id},"name":"${m} Monstera"}`);
  // Focus is back on the button that opened the dialog.
  await expect(page.getByRole('button', { name: `Edit ${m} Monstera` })).toBeFocused();
});

test('Delete asks first; Cancel keeps the plant, Delete removes it', async ({ page }) => {
  const m = marker();
  const id = uniqueId();
  await seedPlants(page, [{ id, name: `${m} Short-lived` }]);
  await page.goto(`/catalogue?q=${m}`);

  await page.getByRole('button', { name: `Delete ${m} Short-lived` }).click();
  const dialog = page.getByRole('dialog', { name: `Delete ${m} Short-lived?` });
  await expect(dialog).toContainText('leaves the catalogue for good');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect((await apiText(page, `/plants/${id}`)).status).toBe(200);

  await page.getByRole('button', { name: `Delete ${m} Short-lived` }).click();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(`Deleted “${m} Short-lived”.`);
  await expect(page.getByText(`No plants match: none has names containing “${m}”.`)).toBeVisible();
  expect((await apiText(page, `/plants/${id}`)).status).toBe(404);
});

test('two people edit the same plant: the second is told, sees the current values, and then decides', async ({ page, context, consoleErrors }) => {
  consoleErrors.allow(/status of 412 /);
  const m = marker();
  const id = uniqueId();
  await seedPlants(page, [{ id, name: `${m} Shared fern`, tag: 'fern' }]);
  const other = await context.newPage();
  for (const each of [page, other]) {
    await each.goto(`/catalogue?q=${m}`);
    await each.getByRole('button', { name: `Edit ${m} Shared fern` }).click();
  }

  await page.getByRole('dialog').getByLabel('Name').fill(`${m} Boston fern`);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText(`Saved “${m} Boston fern”.`);

  const dialog = other.getByRole('dialog');
  await dialog.getByLabel('Tag').fill('outdoor');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(alertOf(other).filter({ hasText: 'Someone else' })).toHaveText(
    `Someone else changed this plant while you were editing. It now reads “${m} Boston fern”, tag “fern”. Save to apply your changes to it, or Cancel to keep it as it is.`,
  );
  // Nothing was overwritten. The field edited keeps what was typed; the other shows the plant as it
  // is now, in the dialog and in the list behind it.
  expect((await apiText(page, `/plants/${id}`)).text).toBe(`{"id":${id},"name":"${m} Boston fern","tag":"fern"}`);
  await expect(dialog.getByLabel('Name')).toHaveValue(`${m} Boston fern`);
  await expect(dialog.getByLabel('Tag')).toHaveValue('outdoor');
  await expect(other.locator('tbody tr').first()).toContainText(`${m} Boston fern`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(other.getByRole('status')).toHaveText(`Saved “${m} Boston fern”.`);
  expect((await apiText(page, `/plants/${id}`)).text).toBe(`{"id":${id},"name":"${m} Boston fern","tag":"outdoor"}`);

  // A delete from the page that last saw the old version is stopped the same way.
  await page.getByRole('button', { name: `Delete ${m} Boston fern` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(alertOf(page).filter({ hasText: 'Someone else' })).toContainText(`It now reads “${m} Boston fern”, tag “outdoor”. Delete it anyway?`);
  expect((await apiText(page, `/plants/${id}`)).status).toBe(200);
  await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(`Deleted “${m} Boston fern”.`);
  expect((await apiText(page, `/plants/${id}`)).status).toBe(404);
});

test('Download CSV exports the current filter', async ({ page }) => {
  const m = marker();
  const ids = [uniqueId(), uniqueId()];
  await seedPlants(page, [
    { id: ids[0], name: `${m} Aloe, "the" healer`, tag: `succulent-${m}` },
    { id: ids[1], name: `${m} Haworthia`, tag: `succulent-${m}` },
    { id: uniqueId(), name: `${m} Fern`, tag: `fern-${m}` },
  ]);
  await page.goto(`/catalogue?tag=succulent-${m}`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('plants.csv');
  const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  expect(text).toBe(`id,name,tag\r\n${ids[0]},"${m} Aloe, ""the"" healer",succulent-${m}\r\n${ids[1]},${m} Haworthia,succulent-${m}\r\n`);
  await expect(page.getByRole('status')).toHaveText('Downloaded plants.csv.');
});

test('works by keyboard and at 375 px wide without sideways scrolling', async ({ page }) => {
  const m = marker();
  await seedPlants(page, [{ id: '9223372036854775806', name: `${m} A plant with a long name that has to wrap somewhere`, tag: 'long-tag-for-narrow-screens' }]);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`/catalogue?q=${m}`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

  await page.getByRole('button', { name: new RegExp(`^Edit ${m}`) }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Name')).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Tag')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: new RegExp(`^Edit ${m}`) })).toBeFocused();
});
