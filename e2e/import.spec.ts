import { readFile } from 'node:fs/promises';
import { expect, test, uniqueId } from './support/fixtures';
import { apiText, chooseCsv, csvOf, marker, seedPlants } from './support/plants';

test.beforeEach(async ({ signIn }) => {
  await signIn('/import');
});

const BOM = '\uFEFF';

test('a file of 2,000 rows with 10 bad: checked row by row, imported in chunks, failures listed and downloadable', async ({ page }) => {
  const m = marker();
  const rows: string[][] = Array.from({ length: 2000 }, (_, index) => [uniqueId(), `${m} Imported ${index}`, index % 3 ? 'imported' : '']);
  // Seven rows the browser refuses, each on its own field...
  const invalid: [number, string[], 'id' | 'name' | 'tag', string][] = [
    [10, ['', `${m} No id`, ''], 'id', 'is required'],
    [20, ['12a', `${m} Letters`, ''], 'id', 'must be a whole number'],
    [30, ['1.5', `${m} Fraction`, ''], 'id', 'must be a whole number'],
    [40, ['9223372036854775808', `${m} Too big`, ''], 'id', 'must be at most 9223372036854775807'],
    [50, [uniqueId(), '   ', ''], 'name', 'must not be empty'],
    [60, [uniqueId(), `${m} ${'n'.repeat(200)}`, ''], 'name', 'must be at most 200 characters'],
    [70, [uniqueId(), `${m} Long tag`, 't'.repeat(101)], 'tag', 'must be at most 100 characters'],
  ];
  for (const [index, row] of invalid) rows[index] = row;
  // ...three the API answers with a conflict, and five it already has as they are.
  const taken = [100, 200, 300];
  const already = [400, 401, 402, 403, 404];
  await seedPlants(page, [
    ...taken.map((index) => ({ id: rows[index][0], name: `${m} Someone else's` })),
    ...already.map((index) => ({ id: rows[index][0], name: rows[index][1], tag: rows[index][2] || undefined })),
  ]);

  await chooseCsv(page, { name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(BOM + csvOf(rows)) });
  const preview = page.getByRole('region', { name: 'shop.csv' });
  await expect(preview).toContainText('2,000 rows of plants');
  await expect(preview).toContainText('1,993 rows ready to import');
  await expect(preview).toContainText('7 rows with problems, which will not be sent');
  const problems = preview.locator('tbody tr');
  await expect(problems).toHaveCount(7);
  const COLUMN = { id: 1, name: 2, tag: 3 };
  for (const [position, [index, , column, message]] of invalid.entries()) {
    const cells = problems.nth(position).locator('td');
    // Row numbers count the header as row 1; the problem stands in its field's cell.
    await expect(cells.first()).toHaveText(String(index + 2));
    await expect(cells.nth(COLUMN[column])).toHaveClass('problem');
    await expect(cells.nth(COLUMN[column])).toContainText(`Problem: ${message}`);
    await expect(problems.nth(position).locator('td.problem')).toHaveCount(1);
  }

  await page.getByRole('button', { name: 'Import 1,993 plants' }).click();
  const results = page.getByRole('region', { name: 'Import finished' });
  await expect(results).toBeVisible();
  await expect(page.getByLabel('Import progress')).toHaveAttribute('value', '1993');
  await expect(results.getByRole('list', { name: 'Results' })).toHaveText(['Created: 1,985', 'Already there: 5', 'Conflict: 3', 'Invalid: 7'].join(''));
  await expect(results.locator('tbody tr')).toHaveCount(10);
  await expect(results.locator('tbody tr').filter({ hasText: rows[100][0] })).toContainText('Conflict');
  await page.getByLabel('Show').selectOption('all');
  await expect(results.locator('tbody tr')).toHaveCount(100);
  await expect(results.locator('tbody tr').nth(2)).toContainText('Created');
  await page.getByRole('button', { name: 'Next rows' }).click();
  await expect(results).toContainText('Rows 101–200 of 2,000');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download failed rows (CSV)' }).click()]);
  expect(download.suggestedFilename()).toBe('shop-failed-rows.csv');
  const failed = (await readFile(await download.path())).toString('utf8').trimEnd().split('\r\n');
  expect(failed[0]).toBe('id,name,tag,error');
  expect(failed).toHaveLength(11);
  expect(failed[1]).toBe(`,${m} No id,,id: is required`);
  expect(failed.find((line) => line.startsWith(rows[100][0]))).toContain('already exists with a different name or tag');

  // Stored exactly, ids and all.
  expect((await apiText(page, `/plants/${rows[1][0]}`)).text).toBe(`{"id":${rows[1][0]},"name":"${m} Imported 1","tag":"imported"}`);
  expect((await apiText(page, `/plants/${rows[100][0]}`)).text).toContain("Someone else's");
});

test('10,000 rows import in under 15 seconds', async ({ page }) => {
  test.setTimeout(90_000);
  const m = marker();
  const rows = Array.from({ length: 10_000 }, (_, index) => [uniqueId(), `${m} Bulk fern ${index}`, 'bulk']);
  const started = Date.now();
  await chooseCsv(page, { name: 'bulk.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(rows)) });
  await page.getByRole('button', { name: 'Import 10,000 plants' }).click();
  await expect(page.getByRole('region', { name: 'Import finished' }).getByRole('list', { name: 'Results' })).toHaveText('Created: 10,000', { timeout: 60_000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`10,000 rows: chosen, checked, imported and reported in ${seconds.toFixed(1)} s`);
  expect(seconds).toBeLessThan(15);
});

test('a file that is not a CSV of plants is refused before anything is sent', async ({ page }) => {
  await chooseCsv(page, { name: 'wrong.csv', mimeType: 'text/csv', buffer: Buffer.from('name,colour\r\nFern,green\r\n') });
  await expect(page.getByRole('alert').filter({ hasText: 'header' })).toContainText('The first row must be the header id,name,tag');
  await chooseCsv(page, { name: 'latin1.csv', mimeType: 'text/csv', buffer: Buffer.from([0x69, 0x64, 0x2c, 0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x31, 0x2c, 0xe9, 0x0a]) });
  await expect(page.getByRole('alert').filter({ hasText: 'UTF-8' })).toContainText('The file is not UTF-8 text');
  await expect(page.getByRole('button', { name: /^Import / })).toHaveCount(0);
});

test('works by keyboard and at 375 px wide', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  const m = marker();
  await chooseCsv(page, {
    name: 'small.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csvOf([[uniqueId(), `${m} Small`, ''], ['x', `${m} A row with a problem and a rather long name`, 'some-long-tag']])),
  });
  await expect(page.getByRole('heading', { name: 'small.csv' })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.getByRole('button', { name: 'Import 1 plant' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
});
