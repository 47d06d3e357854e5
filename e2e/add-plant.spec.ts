import type { Page, Request } from '@playwright/test';
import { alertOf, expect, test, uniqueId } from './support/fixtures';
import { bearer } from './support/plants';
import { scriptsLoadedBy } from './support/scripts';

function plantPosts(page: Page): Request[] {
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/plants') posts.push(request);
  });
  return posts;
}

async function fillPlant(page: Page, plant: { id: string; name: string; tag?: string }) {
  await page.getByLabel('ID').fill(plant.id);
  await page.getByLabel('Name').fill(plant.name);
  await page.getByLabel('Tag', { exact: true }).fill(plant.tag ?? '');
}

test.beforeEach(async ({ signIn }) => {
  await signIn('/');
});

test('adding a plant confirms it, clears the form and lists it first, with its id exact', async ({ page }) => {
  const posts = plantPosts(page);
  const id = uniqueId();
  await fillPlant(page, { id, name: 'Monstera deliciosa', tag: 'aroid' });
  await page.getByRole('button', { name: 'Add plant' }).click();

  await expect(page.getByRole('status')).toHaveText(`Added “Monstera deliciosa” (ID ${id}).`);
  expect(posts).toHaveLength(1);
  expect(posts[0].headers().authorization).toMatch(/^Bearer eyJ/);
  expect(posts[0].postData()).toBe(`{"id":${id},"name":"Monstera deliciosa","tag":"aroid"}`);
  await expect(page.getByLabel('ID')).toHaveValue('');
  await expect(page.getByLabel('Name')).toHaveValue('');

  const recent = page.getByRole('region', { name: 'Recent plants' });
  await expect(recent.getByRole('row').nth(1)).toContainText(id);
  await expect(recent.getByRole('row').nth(1)).toContainText('Monstera deliciosa');
  // The server-rendered list shows it too, newest first.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Recent plants' }).getByRole('row').nth(1)).toContainText(id);
});

test('int64 max survives the trip digit for digit', async ({ page }) => {
  const id = '9223372036854775807';
  await fillPlant(page, { id, name: 'Edge of int64' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toContainText(id);
  await expect(page.getByRole('region', { name: 'Recent plants' }).getByRole('row').nth(1)).toContainText(id);
});

test('an empty name is caught in the browser, beside its field, without any request', async ({ page }) => {
  const posts = plantPosts(page);
  await fillPlant(page, { id: uniqueId(), name: '   ' });
  await page.getByRole('button', { name: 'Add plant' }).click();

  const name = page.getByLabel('Name');
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(name).toHaveAccessibleDescription('must not be empty');
  await expect(name).toBeFocused();
  await expect(page.locator('#name-error')).toHaveText('must not be empty');
  expect(posts).toHaveLength(0);

  await page.getByLabel('ID').fill('12a');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByLabel('ID')).toHaveAccessibleDescription(/must be a whole number/);
  expect(posts).toHaveLength(0);
});

test('a conflicting id shows the API error under the ID and keeps everything typed', async ({ page }) => {
  const id = uniqueId();
  await fillPlant(page, { id, name: 'Fern' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toContainText('Fern');

  await fillPlant(page, { id, name: 'Cactus', tag: 'succulent' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  const message = `id: a plant with id ${id} already exists with a different name or tag; choose another id`;
  await expect(alertOf(page)).toHaveText(message);
  await expect(page.locator('#id-error')).toHaveText(message.slice('id: '.length));
  await expect(page.getByLabel('ID')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('ID')).toHaveValue(id);
  await expect(page.getByLabel('Name')).toHaveValue('Cactus');
  await expect(page.getByLabel('Tag', { exact: true })).toHaveValue('succulent');
});

test('a network failure says so, keeps the input, and a retry succeeds', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^Failed to load resource: net::ERR_CONNECTION_RESET$/);
  const id = uniqueId();
  await page.route('**/plants', (route) => route.abort('connectionreset'), { times: 1 });
  await fillPlant(page, { id, name: 'Retry me' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(alertOf(page)).toContainText('Could not reach the server');
  await expect(page.getByLabel('ID')).toHaveValue(id);

  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toHaveText(`Added “Retry me” (ID ${id}).`);
});

test('the validation is loaded when the form is first used, and a failure to load it is said as a failed request is', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/^Failed to load resource: net::ERR_CONNECTION_RESET$/);
  const scripts = scriptsLoadedBy(page);
  const holdsZod = async () => [...(await scripts.texts()).values()].some((script) => script.includes('ZodError'));
  // Every script from the network, none from the cache signing in filled.
  await (await page.context().newCDPSession(page)).send('Network.setCacheDisabled', { cacheDisabled: true });
  await page.reload();
  await expect(page.getByRole('button', { name: 'Add plant' })).toBeEnabled();
  await page.waitForLoadState('networkidle');
  expect(scripts.addresses.length).toBeGreaterThan(0);
  expect(await holdsZod(), 'zod among the scripts the page loaded as it started').toBe(false);

  // Offline from here: the validation cannot be loaded, so nothing is sent.
  const posts = plantPosts(page);
  await page.route('**/_next/static/**', (route) => route.abort('connectionreset'));
  const id = uniqueId();
  await fillPlant(page, { id, name: 'Offline fern' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(alertOf(page)).toHaveText('Could not reach the server. Nothing was lost: check your connection and press Add plant again.');
  expect(posts).toHaveLength(0);

  // Back online: the next press loads it, checks the input and adds the plant.
  await page.unroute('**/_next/static/**');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toHaveText(`Added “Offline fern” (ID ${id}).`);
  expect(await holdsZod(), 'zod loaded once the form was used').toBe(true);
});

test('the page renews its API token before it expires', async ({ page }) => {
  await page.clock.install();
  await page.reload();
  const renewal = page.waitForRequest((request) => request.url().endsWith('/api/session-token') && request.method() === 'POST');
  await page.clock.fastForward('09:30');
  expect((await (await renewal).response())!.status()).toBe(200);

  const id = uniqueId();
  await fillPlant(page, { id, name: 'After renewal' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toContainText(id);
});

test('the whole journey works from the keyboard, with visible focus', async ({ page }) => {
  await page.goto('/');
  const id = uniqueId();
  // Tab from the top of the page to the ID field: skip link, brand, navigation, sign out, ID.
  for (let presses = 0; presses < 14; presses++) {
    await page.keyboard.press('Tab');
    if (await page.getByLabel('ID').evaluate((element) => element === document.activeElement)) break;
  }
  await expect(page.getByLabel('ID')).toBeFocused();
  const outline = await page.getByLabel('ID').evaluate((element) => getComputedStyle(element).outlineStyle);
  expect(outline).not.toBe('none');

  await page.keyboard.type(id);
  // Past the "Use next free ID" button beside it, to the name.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Use next free ID' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.type('Keyboard fern');
  await page.keyboard.press('Tab');
  await page.keyboard.type('fern');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Add plant' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText(`Added “Keyboard fern” (ID ${id}).`);
  // Focus goes back to the first field, ready for the next plant.
  await expect(page.getByLabel('ID')).toBeFocused();
});

test('"Use next free ID" fills in an id no plant has, asked for when pressed, and goes on to the name', async ({ page }) => {
  const nextId = async () => (await (await page.request.get('/plants/next-id', { headers: { authorization: await bearer(page) } })).text()).match(/\d+/)![0];
  await page.getByRole('button', { name: 'Use next free ID' }).click();
  await expect(page.getByLabel('ID')).toHaveValue(/^\d+$/);
  const offered = await page.getByLabel('ID').inputValue();
  expect(offered).toBe(await nextId());
  await expect(page.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('Numbered for me');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toHaveText(`Added “Numbered for me” (ID ${offered}).`);

  // Someone takes the next one meanwhile: pressing again offers another, never a taken one.
  const taken = await nextId();
  await page.request.post('/plants', {
    headers: { authorization: await bearer(page), 'content-type': 'application/json' },
    data: `{"id": ${taken}, "name": "Taken meanwhile"}`,
  });
  await page.getByRole('button', { name: 'Use next free ID' }).click();
  await expect(page.getByLabel('ID')).not.toHaveValue(taken);
  await expect(page.getByLabel('ID')).toHaveValue(await nextId());
});

test('works at 375 px wide without sideways scrolling, and nothing moves on submit', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(await overflow()).toBeLessThanOrEqual(0);

  const list = page.getByRole('heading', { name: 'Recent plants' });
  const before = await list.boundingBox();
  await fillPlant(page, { id: uniqueId(), name: '' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  expect((await list.boundingBox())!.y).toBe(before!.y);

  const id = uniqueId();
  await fillPlant(page, { id, name: 'Small screen' });
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toContainText('Small screen');
  expect((await list.boundingBox())!.y).toBe(before!.y);
  expect(await overflow()).toBeLessThanOrEqual(0);
});
