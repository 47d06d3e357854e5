import { expect, signInThroughForm, test } from './support/fixtures';
import { MEMBER_EMAIL, MEMBER_PASSWORD } from './support/staff';

test('an admin sees the scheduled backup listed, downloads it, and the download is in the activity', async ({ page, signIn }) => {
  await signIn('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Backups' }).click();
  await expect(page).toHaveURL('/backups');
  await expect(page.getByRole('heading', { name: 'Backups' })).toBeVisible();
  // The e2e server takes its first backup as it starts (e2e/support/serve.ts sets BACKUP_DIR).
  const download = page.getByRole('link', { name: /^Download plants-.+\.db$/ }).first();
  await expect(download).toBeVisible();
  const name = (await download.getAttribute('aria-label'))!.replace('Download ', '');
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(/\d+(\.\d)? KiB|MiB/);

  const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
  expect(file.suggestedFilename()).toBe(name);
  const stream = await file.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\u0000');

  await page.goto('/audit?action=backup.downloaded');
  await expect(page.getByRole('listitem').filter({ hasText: `backup ${name}` }).first()).toContainText('backup.downloaded');
});

test('a staff member cannot open /backups, nor download a backup', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/status of 403/);
  await page.goto('/login');
  await signInThroughForm(page, MEMBER_EMAIL, MEMBER_PASSWORD);
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Backups' })).toHaveCount(0);
  const response = await page.goto('/backups');
  expect(response!.status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Download/ })).toHaveCount(0);

  // The download route checks the session itself, whatever the name.
  const refused = await page.request.get('/backups/plants-2026-01-01T00-00-00-000Z.db');
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ error: 40302, message: 'Only admins may download backups.' });
});
