// Every page at a phone's width (375 px), a small window's (900 px) and a laptop's (1280 px): the
// public ones, what a staff member sees, and every page an admin sees, with the data a store has: 19-digit ids, long names, tags and addresses, a webhook delivery waiting
// for its retry, a dashboard with figures. No content may run out of its box (e2e/support/layout.ts
// says what counts). Each page is loaded once and looked at in each width in turn; a slip leaves a
// screenshot of the page at that width.
import type { Page, TestInfo } from '@playwright/test';
import { startReceiver } from '../test/support/receiver';
import { addMember } from './support/accounts';
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';
import { layoutSlips } from './support/layout';
import { chooseCsv, csvOf, marker, seedPlants } from './support/plants';
import { MEMBER_EMAIL, MEMBER_PASSWORD } from './support/staff';
import { addEndpointWithDeliveredTestEvent, deleteEndpoint } from './support/webhooks';

const WIDTHS = [375, 900, 1280];

/** The page, as it is, at each width: every slip found is a soft failure, so one run names them all. */
async function expectNoSlips(page: Page, testInfo: TestInfo, what: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // The new width laid out: two frames after the resize.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const slips = await layoutSlips(page);
    if (slips.length > 0) {
      await testInfo.attach(`${what} at ${width} px`, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
    }
    expect.soft(slips, `${what} at ${width} px`).toEqual([]);
  }
}

test('the sign-in, set-password and not-found pages, and what a staff member sees, fit at every width', async ({ page, signIn, browser, baseURL, consoleErrors }, testInfo) => {
  consoleErrors.allow(/status of (403|404)/);
  await page.goto('/login');
  await signInThroughForm(page, 'no.such.person.with.a.long.address@greenhouse.example.com', 'wrong password');
  await expect(alertOf(page)).toHaveText('Wrong email or password.');
  await expectNoSlips(page, testInfo, '/login with its refusal');
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expectNoSlips(page, testInfo, 'the not-found page');

  // A staff member: the home page without the admins' figures, and the admins-only refusal.
  await page.goto('/login');
  await signInThroughForm(page, MEMBER_EMAIL, MEMBER_PASSWORD);
  await expect(page).toHaveURL('/');
  await expectNoSlips(page, testInfo, '/ for a staff member');
  await page.goto('/staff');
  await expect(page.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expectNoSlips(page, testInfo, '/staff for a staff member');

  await signIn('/staff');
  const email = `alexandria.featherstonehaugh-${Date.now()}@botanical-gardens.example.com`;
  const link = await addMember(page, email);
  const newcomer = await browser.newContext({ baseURL });
  const linkPage = await newcomer.newPage();
  await linkPage.goto(link);
  await expect(linkPage.getByText(`For ${email}. This link works once.`)).toBeVisible();
  await expectNoSlips(linkPage, testInfo, '/set-password');
  await newcomer.close();
});

test('every staff page fits at every width, with a store\'s data', async ({ page, signIn }, testInfo) => {
  test.setTimeout(120_000);
  const receiver = await startReceiver();
  const url = `${receiver.url}/plant-store/inventory-sync?store=main-greenhouse&layout=${Date.now()}`;
  try {
    await signIn('/webhooks');
    // An endpoint with a delivered test event, then plants it refuses at first: deliveries waiting for their retry.
    const endpoint = await addEndpointWithDeliveredTestEvent(page, receiver, url);
    receiver.respondWith(503);

    const m = marker();
    await seedPlants(page, [
      { id: uniqueId(), name: `${m} Monstera deliciosa 'Thai Constellation', variegated cutting rooted in sphagnum`, tag: 'rare aroid collection' },
      { id: `-${uniqueId()}`, name: `${m} Philodendron erubescens 'Pink Princess'`, tag: 'aroid' },
      { id: uniqueId(), name: `${m} Schlumbergera truncata`, tag: 'holiday cactus' },
      ...Array.from({ length: 9 }, (_, index) => ({ id: uniqueId(), name: `${m} ${['Calathea orbifolia', 'Epipremnum aureum', 'Haworthiopsis attenuata'][index % 3]} ${index + 1}`, tag: ['prayer plant', 'vine', 'succulent'][index % 3] })),
    ]);
    await expect(async () => {
      await page.reload();
      await expect(endpoint.getByRole('row').filter({ hasText: 'Retrying' }).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expectNoSlips(page, testInfo, '/webhooks');

    await page.goto('/tokens');
    await page.getByLabel('Name').fill('inventory sync for the main greenhouse and the garden centre');
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'created' })).toBeVisible();
    await expectNoSlips(page, testInfo, '/tokens with a new token shown');

    // The import: a file checked row by row, with problems, then what became of each row.
    await page.goto('/import');
    await chooseCsv(page, {
      name: 'greenhouse-inventory-november.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        csvOf([
          [uniqueId(), `${m} Maranta leuconeura 'Lemon Lime', hanging basket`, 'prayer plant'],
          [`${uniqueId()}5`, `${m} Pilea peperomioides`, ''],
          ['12a', `${m} Hoya carnosa 'Krimson Queen'`, 'trailing'],
          [uniqueId(), '', 'succulent'],
        ]),
      ),
    });
    await expect(page.getByRole('button', { name: 'Import 1 plant' })).toBeVisible();
    await expectNoSlips(page, testInfo, '/import with its preview');
    await page.getByRole('button', { name: 'Import 1 plant' }).click();
    await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible();
    await expectNoSlips(page, testInfo, '/import with its results');

    const pages: [string, string][] = [
      ['/', 'Add a plant'],
      [`/catalogue?q=${m}`, 'Catalogue'],
      ['/catalogue', 'Catalogue'],
      ['/staff', 'Staff'],
      ['/audit', 'Activity'],
      ['/backups', 'Backups'],
      ['/account', 'Your account'],
      ['/docs', 'API reference'],
    ];
    for (const [path, heading] of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      await expectNoSlips(page, testInfo, path);
    }
  } finally {
    await deleteEndpoint(page, url);
    await receiver.close();
  }
});
