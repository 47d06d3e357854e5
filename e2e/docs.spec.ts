import type { Locator } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { scriptsLoadedBy } from './support/scripts';

test('the API reference shows the published document as a page, and Swagger UI only when asked', async ({ page, signIn }) => {
  await signIn('/');
  // Every script the page downloads from here on, by size: Swagger UI's bundle alone is over 300 KB
  // gzipped.
  const scripts = scriptsLoadedBy(page);
  const largest = async (from = 0) => Math.max(0, ...[...(await scripts.bodies(from)).values()].map((body) => body.length));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL('/docs');

  // Rendered on the server: every operation, with its parameters and responses, and the schemas.
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  const operations = page.getByRole('region', { name: 'Operations' });
  await expect(operations.getByRole('heading', { level: 3, name: 'POST /plants Create plant' })).toBeVisible();
  await expect(operations.getByRole('heading', { level: 3 })).toHaveCount(12);
  await expect(operations.getByRole('heading', { level: 3, name: 'GET /metrics Metrics' })).toBeVisible();
  const list = page.getByRole('region', { name: 'GET /plants List plants' });
  const row = (region: Locator, first: string) => region.getByRole('row').filter({ has: page.getByRole('cell', { name: first, exact: true }) });
  await expect(row(list, 'cursor')).toContainText('Next-Cursor');
  await expect(row(list, '429')).toContainText('42901 (rate_limited)');
  const audit = page.getByRole('region', { name: 'GET /audit-events List audit records' });
  await expect(row(audit, 'limit')).toContainText('How many records');
  await expect(row(audit, 'q')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Schemas' }).getByRole('heading', { level: 3, name: 'Plant', exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'PATCH /plants/{id} Correct a plant' }).click();
  await expect(page).toHaveURL('/docs#op-patchPlant');

  await page.waitForLoadState('networkidle');
  const before = scripts.addresses.length;
  expect(before).toBeGreaterThan(0);
  expect(await largest()).toBeLessThan(1024 * 1024);
  await expect(page.locator('.swagger-host')).toHaveCount(0);

  await page.getByRole('button', { name: 'Open the interactive explorer' }).click();
  const explorer = page.getByRole('region', { name: 'Interactive explorer' }).locator('.swagger-host');
  await expect(explorer.getByText('POST/plants', { exact: false }).first()).toBeVisible();
  await expect(explorer).toContainText('/plants/{id}');
  await expect(explorer.getByRole('button', { name: 'Authorize' })).toBeVisible();
  await expect.poll(() => largest(before)).toBeGreaterThan(1024 * 1024);
});
