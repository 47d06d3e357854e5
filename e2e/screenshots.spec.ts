// `npm run screenshots` refreshes docs/screenshots (shown by README.md and docs/staff-guide.md) from
// the real pages. Not part of npm test.
import { startReceiver } from '../test/support/receiver';
import { addMember, anotherBrowser, setPasswordAndSignIn } from './support/accounts';
import { enrol, requireSecondFactorOf } from './support/second-factor';
import { alertOf, expect, signInThroughForm, test, uniqueId } from './support/fixtures';
import { startMailServer } from './support/mail-server';
import { chooseCsv, csvOf, seedPlants } from './support/plants';
import { MEMBER_EMAIL } from './support/staff';

const shot = (name: string) => ({ path: `docs/screenshots/${name}.png`, fullPage: true });

test.use({ viewport: { width: 900, height: 700 } });

test('README screenshots', async ({ page, browser, baseURL }) => {
  // Every page of the app, one after another.
  test.setTimeout(240_000);
  await page.goto('/login');
  await signInThroughForm(page, 'gardener@example.com', 'wrong password');
  await expect(alertOf(page)).toBeVisible();
  await page.screenshot(shot('sign-in'));

  await signInThroughForm(page);
  await expect(page).toHaveURL('/');
  for (const [name, tag] of [['Monstera deliciosa', 'aroid'], ['Aloe vera', 'succulent'], ['Boston fern', '']]) {
    await page.getByLabel('ID').fill(uniqueId());
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Tag', { exact: true }).fill(tag);
    await page.getByRole('button', { name: 'Add plant' }).click();
    await expect(page.getByRole('status')).toContainText(name);
  }
  await page.screenshot(shot('add-plant-success'));

  const taken = (await page.getByRole('region', { name: 'Recent plants' }).locator('.plant-id').first().textContent())!;
  await page.getByLabel('ID').fill(taken);
  await page.getByLabel('Name').fill('Snake plant');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(alertOf(page)).toBeVisible();
  await page.screenshot(shot('add-plant-error'));

  // The catalogue: a search, then someone else's change met while editing (a 412).
  await seedPlants(page, [
    { id: uniqueId(), name: 'Monstera adansonii', tag: 'aroid' },
    { id: uniqueId(), name: "Monstera deliciosa 'Thai Constellation'", tag: 'aroid' },
    { id: uniqueId(), name: 'Philodendron erubescens', tag: 'aroid' },
    { id: uniqueId(), name: 'Monstera obliqua', tag: 'aroid' },
  ]);
  await page.goto('/catalogue?q=monstera&tag=aroid');
  await expect(page.getByRole('region', { name: 'Plants found' }).locator('tbody tr')).toHaveCount(4);
  await page.screenshot(shot('catalogue'));

  const other = await page.context().newPage();
  await other.goto('/catalogue?q=obliqua');
  await other.getByRole('button', { name: 'Edit Monstera obliqua' }).click();
  await page.getByRole('button', { name: 'Edit Monstera obliqua' }).click();
  await page.getByRole('dialog').getByLabel('Tag', { exact: true }).fill('rare aroid');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('status')).toContainText('Saved');
  await other.getByRole('dialog').getByLabel('Name').fill('Monstera obliqua Peru');
  await other.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(alertOf(other).filter({ hasText: 'Someone else' })).toBeVisible();
  await other.screenshot(shot('catalogue-conflict'));
  await other.close();

  // A wide screen: the home page's dashboard and the catalogue using the width; then a phone.
  await seedPlants(
    page,
    Array.from({ length: 36 }, (_, index) => ({ id: uniqueId(), name: `${['Calathea', 'Pothos', 'Haworthia', 'Begonia'][index % 4]} ${index + 1}`, tag: ['prayer plant', 'vine', 'succulent', 'begonia', ''][index % 5] })),
  );
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Overview' })).toBeVisible();
  await page.screenshot(shot('dashboard'));
  await page.goto('/catalogue?sort=name');
  await expect(page.getByRole('region', { name: 'Plants' }).locator('tbody tr')).toHaveCount(20);
  await page.getByRole('checkbox', { name: /^Select Aloe vera/ }).check();
  await page.getByRole('checkbox', { name: /^Select Begonia 12/ }).check();
  await page.screenshot(shot('catalogue-wide'));
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/catalogue');
  await page.getByRole('region', { name: 'Plants' }).locator('tbody tr').first().getByRole('button', { name: /^Actions for/ }).click();
  await page.screenshot({ path: 'docs/screenshots/phone-catalogue.png' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' }).click();
  await page.screenshot({ path: 'docs/screenshots/phone-menu.png' });
  await page.setViewportSize({ width: 900, height: 700 });

  // Import: a file checked row by row, then what became of each row.
  await page.goto('/import');
  const rows = [
    [uniqueId(), 'Calathea orbifolia', 'prayer plant'],
    [uniqueId(), 'Maranta leuconeura', 'prayer plant'],
    ['12a', 'Pilea peperomioides', ''],
    [uniqueId(), '', 'succulent'],
    [uniqueId(), 'Hoya carnosa', 'trailing'],
  ];
  await chooseCsv(page, { name: 'greenhouse.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(rows)) });
  await expect(page.getByRole('button', { name: 'Import 3 plants' })).toBeVisible();
  await page.screenshot(shot('import-preview'));
  await page.getByRole('button', { name: 'Import 3 plants' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible();
  await page.screenshot(shot('import-results'));

  await page.goto('/tokens');
  await page.getByLabel('Name').fill('inventory sync');
  await page.getByRole('button', { name: 'Create token' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'created' })).toBeVisible();
  await page.screenshot(shot('tokens'));

  const link = await addMember(page, 'rosa@example.com');
  await page.screenshot(shot('staff'));

  await page.goto('/account');
  await page.screenshot(shot('account'));

  const newcomer = await browser.newContext({ baseURL, viewport: { width: 900, height: 700 } });
  const linkPage = await newcomer.newPage();
  await linkPage.goto(link);
  await expect(linkPage.getByLabel('New password')).toBeVisible();
  await linkPage.screenshot(shot('set-password'));
  await newcomer.close();

  // Webhooks, with a receiver on this machine (the e2e server allows private URLs): one endpoint,
  // a delivered test event, and a plant the receiver refuses at first, so a retry shows.
  const receiver = await startReceiver();
  await page.goto('/webhooks');
  await page.getByLabel('URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  receiver.setSecret((await page.getByLabel('Signing secret').textContent())!);
  await page.screenshot(shot('webhook-created'));
  await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
  await expect(page.getByRole('row').filter({ hasText: 'webhook.test' })).toContainText('Delivered');
  receiver.respondWith(({ count }) => (count === 0 ? 503 : 204));
  await page.goto('/');
  await page.getByLabel('ID').fill(uniqueId());
  await page.getByLabel('Name').fill('Fiddle-leaf fig');
  await page.getByRole('button', { name: 'Add plant' }).click();
  await expect(page.getByRole('status')).toContainText('Fiddle-leaf fig');
  await receiver.waitFor((delivery) => delivery.event.data.name === 'Fiddle-leaf fig');
  await page.goto('/webhooks');
  await page.screenshot(shot('webhooks'));
  await page.goto('/audit');
  await page.screenshot(shot('activity'));
  // Its secret rotated: the new one shown once, and until when the one before still signs.
  await page.goto('/webhooks');
  await page.getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
  await page.getByRole('button', { name: 'Yes, rotate' }).click();
  await expect(page.getByLabel('New signing secret')).toBeVisible();
  await page.screenshot(shot('webhook-rotated'));
  await receiver.close();
});

test('the forgot-password page, on a server that sends email', async ({ browser }) => {
  test.setTimeout(150_000);
  const mail = await startMailServer();
  try {
    const context = await browser.newContext({ baseURL: mail.url, viewport: { width: 900, height: 700 } });
    const page = await context.newPage();
    await page.goto('/forgot-password');
    await page.getByLabel('Email').fill(MEMBER_EMAIL);
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByRole('status')).toContainText(`If an account exists for ${MEMBER_EMAIL}`);
    await page.screenshot(shot('forgot-password'));
    await context.close();
  } finally {
    await mail.stop();
  }
});

test('second factor screenshots', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const password = 'two locks on the greenhouse';
  await page.goto('/login');
  await signInThroughForm(page);
  await expect(page).toHaveURL('/');
  const adminLink = await addMember(page, 'iris@example.com', 'Admin');
  const memberLink = await addMember(page, 'basil@example.com');

  // Iris sets up hers on /account, then signs in again: the second step.
  const iris = await anotherBrowser(browser, baseURL!);
  await iris.page.setViewportSize({ width: 900, height: 700 });
  await setPasswordAndSignIn(iris.page, adminLink, 'iris@example.com', password);
  await iris.page.goto('/account');
  await enrol(iris.page, { beforeConfirming: () => iris.page.getByRole('region', { name: 'Second factor' }).screenshot({ path: 'docs/screenshots/second-factor-enrol.png' }) });
  const second = await anotherBrowser(browser, baseURL!);
  await second.page.setViewportSize({ width: 900, height: 700 });
  await second.page.goto('/login');
  await signInThroughForm(second.page, 'iris@example.com', password);
  await expect(second.page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await second.page.screenshot(shot('second-step'));
  await second.context.close();

  // The rule on /staff, and where Basil lands while it holds.
  await requireSecondFactorOf(iris.page, 'Everyone', 'Saved: a second factor is required of everyone.');
  try {
    await iris.page.getByRole('region', { name: 'Second factor' }).screenshot({ path: 'docs/screenshots/staff-second-factor.png' });
    const basil = await anotherBrowser(browser, baseURL!);
    await basil.page.setViewportSize({ width: 900, height: 700 });
    await basil.page.goto(memberLink);
    await basil.page.getByLabel('New password').fill(password);
    await basil.page.getByRole('button', { name: 'Set password' }).click();
    await basil.page.getByRole('link', { name: 'Sign in' }).click();
    await signInThroughForm(basil.page, 'basil@example.com', password);
    await expect(basil.page).toHaveURL('/enrol?callbackUrl=%2F');
    await basil.page.screenshot(shot('enrol'));
    await basil.context.close();
  } finally {
    await requireSecondFactorOf(iris.page, 'Nobody (each person chooses)', 'Saved: nobody is required to have a second factor.');
    await iris.context.close();
  }
});

test('single sign-on screenshots', async ({ page, signIn, browser, baseURL }) => {
  // The sign-in page with the provider's button, as a refusal from the provider leaves it.
  await page.goto('/login?error=OidcDomainNotAllowed');
  await expect(alertOf(page)).toBeVisible();
  await page.screenshot(shot('sign-in-provider'));

  // Password sign-in for admins only: the staff page's setting, and the sign-in page that leads with the provider.
  await signIn('/staff');
  const policy = page.getByRole('region', { name: 'Sign-in' });
  await policy.getByRole('button', { name: 'Password sign-in for admins only' }).click();
  await policy.getByRole('button', { name: 'Yes, admins only' }).click();
  await expect(policy).toContainText('Password sign-in is for admins only');
  await policy.screenshot({ path: 'docs/screenshots/staff-sign-in-setting.png' });
  try {
    const other = await browser.newContext({ baseURL, viewport: { width: 900, height: 700 } });
    const signedOut = await other.newPage();
    await signedOut.goto('/login');
    await expect(signedOut.getByRole('button', { name: /^Sign in with / })).toBeEnabled();
    await signedOut.screenshot(shot('sign-in-admins-only'));
    await other.close();
  } finally {
    await policy.getByRole('button', { name: 'Let staff use passwords again' }).click();
    await policy.getByRole('button', { name: 'Yes, allow passwords' }).click();
    await expect(policy).toContainText('Everyone may sign in');
  }
});
