import type { Locator } from '@playwright/test';
import { expect, test } from './support/fixtures';

test('the API reference shows the published document as a page, and Swagger UI only when asked', async ({ page, signIn }) => {
  await signIn('/');
  // Every script the page downloads from here on, by size: Swagger UI's bundle alone is over 300 KB
  // gzipped. Counted once signed in: the browser may drop the bodies of the sign-in page's scripts
  // when it leaves that document, and the way to /docs below stays in one document.
  const scripts: number[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push((await response.body()).length);
  });
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
  const before = scripts.length;
  expect(Math.max(...scripts)).toBeLessThan(1024 * 1024);
  await expect(page.locator('.swagger-host')).toHaveCount(0);

  await page.getByRole('button', { name: 'Open the interactive explorer' }).click();
  const explorer = page.getByRole('region', { name: 'Interactive explorer' }).locator('.swagger-host');
  await expect(explorer.getByText('POST/plants', { exact: false }).first()).toBeVisible();
  await expect(explorer).toContainText('/plants/{id}');
  await expect(explorer.getByRole('button', { name: 'Authorize' })).toBeVisible();
  await expect.poll(() => Math.max(0, ...scripts.slice(before))).toBeGreaterThan(1024 * 1024);
});
