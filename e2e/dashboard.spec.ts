// The home page's dashboard: the figures and charts of GET /stats beside the add form, on an empty
// store (the e2e server starts with none; this file runs first of those that add plants) and once
// plants are in.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, uniqueId } from './support/fixtures';
import { marker, seedPlants } from './support/plants';

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const figure = (page: Page, name: string) => page.locator('.figures div').filter({ has: page.getByText(name, { exact: true }) }).locator('dd');

test('the dashboard shows the figures, a chart per day and per tag, each also as a table; a tag bar opens its plants', async ({ page, signIn }) => {
  test.setTimeout(60_000);
  await signIn('/');
  const overview = page.getByRole('region', { name: 'Overview' });
  await expect(overview).toBeVisible();
  // The add form is still first on the page.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Add a plant');
  const before = Number((await figure(page, 'Plants').textContent())!.replace(/,/g, ''));
  const todayBefore = Number((await figure(page, 'Added today').textContent())!.replace(/,/g, ''));
  if (before === 0) {
    // An empty store says so instead of drawing empty charts.
    await expect(overview.getByText('No plants were added in these 30 days.')).toBeVisible();
    await expect(overview.getByText('No plants yet, so no tags to show.')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  }

  const m = marker();
  await seedPlants(page, [
    ...Array.from({ length: 40 }, (_, index) => ({ id: uniqueId(), name: `${m} Dash ${index}`, tag: `dash-${m}` })),
    ...Array.from({ length: 2 }, (_, index) => ({ id: uniqueId(), name: `${m} Bare ${index}` })),
  ]);
  await page.reload();
  await expect(figure(page, 'Plants')).toHaveText(new Intl.NumberFormat('en').format(before + 42));
  await expect(figure(page, 'Added today')).toHaveText(new Intl.NumberFormat('en').format(todayBefore + 42));
  await expect(overview.getByRole('img', { name: 'Plants added per day, last 30 days' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // The tables say the same as the charts.
  await overview.getByText('Show as table').nth(1).click();
  const tagRow = overview.getByRole('row').filter({ hasText: `dash-${m}` });
  await expect(tagRow.getByRole('cell').nth(1)).toHaveText('40');
  await overview.getByText('Show as table').first().click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(overview.getByRole('row').filter({ hasText: today }).getByRole('cell').nth(1)).toHaveText(String(todayBefore + 42));
  expect(await seriousViolations(page)).toEqual([]);

  // The range is in the address.
  await overview.getByRole('link', { name: '90 days' }).click();
  await expect(page).toHaveURL('/?days=90');
  await expect(overview.getByRole('img', { name: 'Plants added per day, last 90 days' })).toBeVisible();

  // A tag's bar opens the catalogue filtered by it.
  await overview.getByRole('img', { name: /^Plants by tag/ }).or(overview.locator('svg.chart').nth(1)).getByRole('link', { name: new RegExp(`^dash-${m}`) }).click();
  await expect(page).toHaveURL(`/catalogue?tag=dash-${m}`);
  await expect(page.getByRole('region', { name: /^Plants/ }).locator('.count')).toHaveText('1–20 of 40');
});

test('admins also see webhook health and the latest activity', async ({ page, signIn }) => {
  await signIn('/');
  const overview = page.getByRole('region', { name: 'Overview' });
  await expect(overview.getByText('Webhook deliveries, last 24 hours')).toBeVisible();
  await expect(overview.getByRole('heading', { name: 'Latest activity' })).toBeVisible();
  await expect(overview.locator('.activity-list li').first()).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
