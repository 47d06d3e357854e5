import type { Page } from '@playwright/test';
import { alertOf, expect, test, uniqueId } from './support/fixtures';
import { apiText, bearer, marker, seedPlants } from './support/plants';

const rowsOf = (page: Page) => page.getByRole('region', { name: /^Plants/ }).locator('tbody tr');

async function searchFor(page: Page, q: string, tag = '') {
  await page.getByLabel('Search').fill(q);
  await page.getByLabel('Tag', { exact: true }).fill(tag);
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
  await expect(page.getByLabel('Tag', { exact: true })).toHaveValue('');
  await expect(rowsOf(page)).toHaveCount(1);

  // A shared address shows the same; and an empty result says so.
  await page.goto(`/catalogue?tag=tree-${m}`);
  await expect(rowsOf(page)).toHaveCount(1);
  await expect(page.getByLabel('Tag', { exact: true })).toHaveValue(`tree-${m}`);
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
  await dialog.getByLabel('Tag', { exact: true }).fill('');
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
  await dialog.getByLabel('Tag', { exact: true }).fill('outdoor');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(alertOf(other).filter({ hasText: 'Someone else' })).toHaveText(
    `Someone else changed this plant while you were editing. It now reads “${m} Boston fern”, tag “fern”. Save to apply your changes to it, or Cancel to keep it as it is.`,
  );
  // Nothing was overwritten. The field edited keeps what was typed; the other shows the plant as it
  // is now, in the dialog and in the list behind it.
  expect((await apiText(page, `/plants/${id}`)).text).toBe(`{"id":${id},"name":"${m} Boston fern","tag":"fern"}`);
  await expect(dialog.getByLabel('Name')).toHaveValue(`${m} Boston fern`);
  await expect(dialog.getByLabel('Tag', { exact: true })).toHaveValue('outdoor');
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

  // At this width the row's actions are in its menu.
  await page.getByRole('button', { name: new RegExp(`^Actions for ${m}`) }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: new RegExp(`^Edit ${m}`) })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel('Name')).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Tag', { exact: true })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: new RegExp(`^Actions for ${m}`) })).toBeFocused();
});

test('columns sort through the API, the sort stays in the address, and the count says where the page is', async ({ page }) => {
  // A dozen page loads.
  test.setTimeout(90_000);
  const m = marker();
  const base = BigInt(uniqueId());
  // Added in this order; names and ids each in another order.
  const plants = Array.from({ length: 25 }, (_, index) => ({ id: String(base + BigInt((index * 7) % 25)), name: `${m} ${String.fromCharCode(97 + ((index * 11) % 25))} Sorted`, tag: `sorted-${m}` }));
  await seedPlants(page, plants);
  await page.goto(`/catalogue?tag=sorted-${m}`);
  const region = page.getByRole('region', { name: /^Plants/ });
  await expect(region.locator('.count')).toHaveText('1–20 of 25');
  await expect(page.getByRole('columnheader', { name: /^Added/ })).toHaveAttribute('aria-sort', 'descending');

  await page.getByRole('link', { name: 'Name, sort by name, A to Z' }).click();
  await expect(page).toHaveURL(`/catalogue?tag=sorted-${m}&sort=name`);
  await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
  const byName = [...plants].sort((a, b) => (a.name < b.name ? -1 : 1));
  await expect(rowsOf(page).first()).toContainText(byName[0].name);
  await page.getByRole('link', { name: 'Next page →' }).click();
  await expect(region.locator('.count')).toHaveText('21–25 of 25');
  await expect(rowsOf(page)).toHaveCount(5);
  await expect(rowsOf(page).last()).toContainText(byName[24].name);
  await page.getByRole('link', { name: '← Previous page' }).click();
  await expect(region.locator('.count')).toHaveText('1–20 of 25');

  await page.getByRole('link', { name: 'Name, sort by name, Z to A' }).click();
  await expect(page).toHaveURL(`/catalogue?tag=sorted-${m}&sort=-name`);
  await expect(rowsOf(page).first()).toContainText(byName[24].name);

  await page.getByRole('link', { name: 'ID, sort by ID, lowest first' }).click();
  await expect(rowsOf(page).first()).toContainText(String(base));
  await page.getByRole('link', { name: 'ID, sort by ID, highest first' }).click();
  await expect(rowsOf(page).first()).toContainText(String(base + 24n));
  await page.getByRole('link', { name: 'Added, sort newest first' }).click();
  await expect(page).toHaveURL(`/catalogue?tag=sorted-${m}`);
  await expect(rowsOf(page).first()).toContainText(plants[24].name);
  await page.getByRole('link', { name: 'Added, sort oldest first' }).click();
  await expect(rowsOf(page).first()).toContainText(plants[0].name);

  // A search keeps the sort; an id stays on one line on a wide screen.
  await searchFor(page, `${m} b`, `sorted-${m}`);
  await expect(page).toHaveURL(new RegExp(`sort=created`));
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/catalogue?tag=sorted-${m}`);
  const idCell = rowsOf(page).first().locator('.id-text');
  const box = (await idCell.boundingBox())!;
  const lineHeight = await idCell.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 20);
  expect(box.height).toBeLessThan(lineHeight * 1.5);
  expect((await page.locator('main').boundingBox())!.width).toBeGreaterThan(1100);
});

test('several rows are deleted after one confirmation; a row changed meanwhile is kept and reported', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 412 /);
  const m = marker();
  const plants = ['Alpha', 'Beta', 'Gamma'].map((name) => ({ id: uniqueId(), name: `${m} ${name}`, tag: `bulk-${m}` }));
  await seedPlants(page, plants);
  await page.goto(`/catalogue?tag=bulk-${m}`);
  await expect(rowsOf(page)).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select every plant on this page' }).check();
  await expect(page.getByText('3 selected', { exact: true })).toBeVisible();

  // Someone else renames Beta after the page showed it.
  const renamed = await page.request.patch(`/plants/${plants[1].id}`, {
    headers: { authorization: await bearer(page), 'content-type': 'application/merge-patch+json' },
    data: JSON.stringify({ name: `${m} Beta renamed` }),
  });
  expect(renamed.status()).toBe(200);

  await page.getByRole('button', { name: 'Delete 3 selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 3 plants?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Delete 3 plants' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(alertOf(page)).toHaveText(
    `Deleted 2 plants. Changed by someone else since the page showed them, so not deleted: “${m} Beta renamed”. Their rows now show what they hold; select them again to delete them.`,
  );
  await expect(rowsOf(page)).toHaveCount(1);
  await expect(rowsOf(page).first()).toContainText(`${m} Beta renamed`);
  await expect(page.getByRole('region', { name: /^Plants/ }).locator('.count')).toHaveText('1–1 of 1');
  expect((await apiText(page, `/plants?tag=bulk-${m}`)).text).toContain('Beta renamed');
  expect((await apiText(page, `/plants/${plants[0].id}`)).status).toBe(404);
});
