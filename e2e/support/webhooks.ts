// The webhooks page's first steps, as journeys that only need an endpoint with a delivery take them.
import type { Locator, Page } from '@playwright/test';
import type { Receiver } from '../../test/support/receiver';
import { expect } from './fixtures';

/**
 * On /webhooks (signed in, the page loaded): adds an endpoint for `url`, gives `receiver` the
 * signing secret the page shows once, and sends the endpoint a test event, waiting until the page
 * shows it delivered. Answers the endpoint's card.
 */
export async function addEndpointWithDeliveredTestEvent(page: Page, receiver: Receiver, url: string): Promise<Locator> {
  await page.getByLabel('URL').fill(url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  receiver.setSecret((await page.getByRole('status').filter({ hasText: `Endpoint ${url} added.` }).getByLabel('Signing secret').textContent())!);
  const endpoint = page.getByRole('region', { name: url });
  await endpoint.getByRole('button', { name: `Send test event to ${url}` }).click();
  await expect(endpoint.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('Delivered', { timeout: 15_000 });
  return endpoint;
}

/**
 * On any page (signed in as an admin): deletes the endpoint for `url` on /webhooks. A journey that
 * added one deletes it when it ends, pass or fail: its receiver is gone then, and every later
 * journey's plants would queue deliveries to it, three attempts each, ahead of their own.
 */
export async function deleteEndpoint(page: Page, url: string): Promise<void> {
  await page.goto('/webhooks');
  await page.getByRole('button', { name: `Delete ${url}` }).click();
  await page.getByRole('button', { name: 'Yes, delete' }).click();
  await expect(page.getByRole('region', { name: url })).toHaveCount(0);
}
