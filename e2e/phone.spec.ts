// The staff pages at 375 px, a phone's width: the navigation folds behind a Menu button, the
// catalogue's rows are cards with their actions in a menu, and an id never breaks over lines.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, uniqueId } from './support/fixtures';
import { marker, seedPlants } from './support/plants';

test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
// Each journey runs axe several times.
test.setTimeout(60_000);

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test.beforeEach(async ({ signIn }) => {
  await signIn('/catalogue');
});

test('the navigation is one Menu button, a disclosure that opens and closes', async ({ page }) => {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = nav.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Import' })).toBeHidden();
  // The bar is one line: the brand, Menu and Sign out side by side.
  const bar = (await page.locator('header.topbar').boundingBox())!;
  expect(bar.height).toBeLessThan(70);
  expect(await seriousViolations(page)).toEqual([]);

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav.getByRole('link', { name: 'Import' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  await menu.click();
  await nav.getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL('/import');
  await expect(nav.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Import' })).toBeHidden();
});

test('catalogue rows are cards: name, tag and a one-line id, with the actions in a menu; dialogs fit', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const m = marker();
  const id = `-${uniqueId()}`;
  await seedPlants(page, [
    { id, name: `${m} Phone fern`, tag: 'fern' },
    { id: uniqueId(), name: `${m} Phone ivy` },
  ]);
  await page.goto(`/catalogue?q=${m}`);
  const card = page.getByRole('region', { name: /^Plants/ }).locator('tbody tr').filter({ hasText: 'Phone fern' });
  await expect(card).toBeVisible();
  // No sideways scrolling, and the id on one line.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  const idText = card.locator('.id-text');
  const lineHeight = await idText.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
  expect((await idText.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
  // The row's own buttons are folded into its menu.
  await expect(card.getByRole('button', { name: `Edit ${m} Phone fern` })).toBeHidden();
  const actions = card.getByRole('button', { name: `Actions for ${m} Phone fern` });
  await expect(actions).toHaveAttribute('aria-expanded', 'false');
  expect(await seriousViolations(page)).toEqual([]);

  await actions.click();
  await expect(actions).toHaveAttribute('aria-expanded', 'true');
  expect(await seriousViolations(page)).toEqual([]);
  await card.getByRole('button', { name: `Copy ID of ${m} Phone fern` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Copied the ID' })).toHaveText(`Copied the ID of “${m} Phone fern”.`);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

  await actions.click();
  await card.getByRole('button', { name: `Edit ${m} Phone fern` }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await seriousViolations(page)).toEqual([]);
});
