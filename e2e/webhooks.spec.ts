// An admin connects a receiver: adds an endpoint, sends it a test event, sees it delivered, rotates
// its secret without a gap for the receiver, and finds a plant's history in the activity log. The
// receiver runs here, on this machine, and verifies every signature with the secret the page
// showed once.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { startReceiver, verifiesWith, type Receiver } from '../test/support/receiver';
import { expect, test, uniqueId } from './support/fixtures';
import { STAFF_EMAIL } from './support/staff';
import { deleteEndpoint } from './support/webhooks';

let receiver: Receiver;
let endpointAdded = false;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
// The endpoint goes with its receiver, so no later journey's plants queue deliveries to it.
test.afterEach(async ({ page }) => {
  if (!endpointAdded) return;
  await deleteEndpoint(page, receiver.url);
  endpointAdded = false;
});
test.afterAll(async () => {
  await receiver.close();
});

/** What axe finds serious or critical on the page, or only within `include` (a selector). */
async function seriousViolations(page: Page, include?: string) {
  const axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  const results = await (include ? axe.include(include) : axe).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test('add an endpoint, send a test event, see it delivered, and find a plant\'s history', async ({ page, signIn }) => {
  // Four pages and two deliveries through a receiver: about 10 s while both vitest suites run beside it.
  test.setTimeout(60_000);
  await signIn('/webhooks');
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' })).toBeVisible();

  // Keyboard only: the URL, the event choices, the button.
  await page.getByLabel('URL').fill(receiver.url);
  await page.getByLabel('URL').press('Tab');
  await expect(page.getByRole('checkbox', { name: 'plant.created' })).toBeFocused();
  await expect(page.getByRole('checkbox', { name: 'plant.created' })).toBeChecked();
  await page.getByRole('button', { name: 'Add endpoint' }).focus();
  await page.keyboard.press('Enter');
  endpointAdded = true;

  const shown = page.getByRole('status').filter({ hasText: `Endpoint ${receiver.url} added.` });
  await expect(shown).toContainText('it will not be shown again');
  const secret = (await shown.getByLabel('Signing secret').textContent())!;
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  receiver.setSecret(secret);
  expect(await seriousViolations(page)).toEqual([]);

  const endpoint = page.getByRole('region', { name: receiver.url });
  await expect(endpoint).toContainText('Enabled');
  await endpoint.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
  // The page follows the delivery on its own until it is done.
  const row = endpoint.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(row).toContainText('Delivered', { timeout: 15_000 });
  await expect(row).toContainText('204');
  await expect(row).toContainText(/\d+ ms/);
  const [delivered] = await receiver.waitFor((delivery) => delivery.event.type === 'webhook.test');
  expect(receiver.rejected).toEqual([]);
  await expect(row).toContainText(delivered.id);

  // Rotating the secret: asked first; the new one is shown once, and the one before still signs.
  const rotate = `Rotate secret of ${receiver.url}`;
  await endpoint.getByRole('button', { name: rotate }).click();
  const confirm = endpoint.getByRole('group', { name: `Confirm: ${rotate}` });
  await expect(confirm).toContainText('the current one signs each delivery beside it');
  await confirm.getByRole('button', { name: 'Yes, rotate' }).click();
  const rotated = endpoint.getByRole('status').filter({ hasText: `New signing secret for ${receiver.url}.` });
  await expect(rotated).toContainText('it will not be shown again');
  await expect(rotated).toContainText(/Until \d{4}-\d\d-\d\d \d\d:\d\d UTC, each delivery is signed with the previous secret too/);
  const newSecret = (await rotated.getByLabel('New signing secret').textContent())!;
  expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(newSecret).not.toBe(secret);
  await expect(endpoint).toContainText(/previous secret signs until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  expect(await seriousViolations(page, '.new-secret')).toEqual([]);
  // The receiver still holds the first secret: the next test event verifies with it, and with the new one.
  await endpoint.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
  const [, afterRotation] = await receiver.waitFor((delivery) => delivery.event.type === 'webhook.test', { count: 2 });
  expect(receiver.rejected).toEqual([]);
  expect([verifiesWith(afterRotation, secret), verifiesWith(afterRotation, newSecret)]).toEqual([true, true]);
  receiver.setSecret(newSecret);

  // A reload shows the endpoint, never a secret again.
  await page.reload();
  expect(await page.content()).not.toContain(secret);
  expect(await page.content()).not.toContain(newSecret);

  // A plant added on the form goes out as plant.created, and has a history.
  const id = uniqueId();
  await page.goto('/');
  await page.getByLabel('ID').fill(id);
  await page.getByLabel('Name').fill('Tracked fern');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toContainText('Tracked fern');
  const [created] = await receiver.waitFor((delivery) => String(delivery.event.data.id) === id);
  expect(created.body).toContain(`"data":{"id":${id},"name":"Tracked fern"}`);

  // Corrected in the catalogue: plant.updated goes out, with the plant as it is now.
  await page.goto(`/catalogue?q=${encodeURIComponent('Tracked fern')}`);
  await page.getByRole('button', { name: 'Edit Tracked fern' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Tracked fern' });
  await dialog.getByLabel('Name').fill('Tracked maidenhair fern');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toHaveText('Saved “Tracked maidenhair fern”.');
  const [updated] = await receiver.waitFor((delivery) => delivery.event.type === 'plant.updated' && String(delivery.event.data.id) === id);
  expect(updated.body).toContain(`"data":{"id":${id},"name":"Tracked maidenhair fern"}`);

  // Each plant in the catalogue links to its history in the activity log.
  await page.getByRole('link', { name: 'History of Tracked maidenhair fern' }).click();
  await expect(page).toHaveURL(`/audit?target=plant%3A${id}`);
  await expect(page.getByText(`Showing the history of plant ${id}`)).toBeVisible();
  const records = page.getByRole('region', { name: 'Newest records' }).getByRole('listitem');
  await expect(records).toHaveCount(2);
  await expect(records.nth(0)).toContainText('plant.updated');
  await expect(records.nth(0)).toContainText(`Before{"id":${id},"name":"Tracked fern"}`);
  await expect(records.nth(0)).toContainText(`After{"id":${id},"name":"Tracked maidenhair fern"}`);
  await expect(records.nth(1)).toContainText('plant.created');
  await expect(records.nth(1)).toContainText(`Staff: ${STAFF_EMAIL}`);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Activity' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Filters: by action and actor, kept in the URL.
  await page.goto('/audit');
  await page.getByLabel('Action').selectOption('webhook.created');
  await page.getByLabel('Actor').fill(STAFF_EMAIL);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/action=webhook\.created/);
  const filtered = page.getByRole('region', { name: 'Newest records' }).getByRole('listitem');
  await expect(filtered.first()).toContainText('webhook.created');
  await expect(filtered.first()).toContainText(receiver.url);
});

test('the webhooks and activity pages work at 375 px wide', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn('/webhooks');
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  await page.goto('/audit');
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  expect(await seriousViolations(page)).toEqual([]);
});
