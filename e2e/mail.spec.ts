// Set-password links by email, in Chromium, against a server that sends through a real SMTP server
// on loopback (e2e/support/mail-server.ts): each journey follows the link from the message received
// and sets the password. Also: an address with no account (the same answer, no message), the
// limit per address, and an SMTP server that is down (the page answers at once; the message goes
// out once the server is back).
import { seriousViolations } from './support/axe';
import { alertOf, expect, signInThroughForm, test } from './support/fixtures';
import { startMailServer, MAIL_E2E_URL, type MailServer } from './support/mail-server';
import { MEMBER_EMAIL, STAFF_EMAIL, STAFF_PASSWORD } from './support/staff';

test.use({ baseURL: MAIL_E2E_URL });
test.describe.configure({ mode: 'serial' });

let mail: MailServer;
test.beforeAll(async () => {
  test.setTimeout(120_000);
  mail = await startMailServer();
});
test.afterAll(async () => {
  await mail?.stop();
});

const SENT = (email: string) => `If an account exists for ${email}, we sent a link to it.`;
let network = 0;
/** A network of the journey's own (the server trusts X-Forwarded-For), so no journey spends another's allowance. */
const fromOwnNetwork = async (page: import('@playwright/test').Page) => page.setExtraHTTPHeaders({ 'x-forwarded-for': `198.51.100.${++network}` });

async function askForLink(page: import('@playwright/test').Page, email: string) {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send link' }).click();
}

async function setPassword(page: import('@playwright/test').Page, link: string, email: string, password: string) {
  await page.goto(link);
  await expect(page.getByText(`For ${email}. This link works once.`)).toBeVisible();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status')).toContainText(`Password set for ${email}.`);
}

test('forgot password: the link from the message sets a new password, and the member signs in with it', async ({ page }) => {
  await fromOwnNetwork(page);
  await askForLink(page, MEMBER_EMAIL);
  await expect(page.getByRole('status')).toContainText(SENT(MEMBER_EMAIL));
  expect(await seriousViolations(page)).toEqual([]);
  const [message] = await mail.smtp.waitFor(MEMBER_EMAIL);
  expect(message.subject).toBe('Set a new password for The Greenhouse');
  expect(message.html).toContain('Set a new password');
  expect(message.link).toMatch(new RegExp(`^${MAIL_E2E_URL}/set-password#[\\w-]{43}$`));

  await setPassword(page, message.link!, MEMBER_EMAIL, 'pots by the window sill');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await signInThroughForm(page, MEMBER_EMAIL, 'pots by the window sill');
  await expect(page).toHaveURL('/');
});

test('an address with no account gets the same answer and no message; asking again at once is refused, for it as for an account', async ({ page }) => {
  await fromOwnNetwork(page);
  const nobody = `nobody-${Date.now()}@example.com`;
  await askForLink(page, nobody);
  await expect(page.getByRole('status')).toContainText(SENT(nobody));
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(alertOf(page)).toHaveText(/^A link for this address was asked for a moment ago\. Wait \d+ seconds and try again\.$/);
  expect(await seriousViolations(page)).toEqual([]);

  // The account asked for a moment ago in the journey before: the same refusal.
  await page.getByLabel('Email').fill(MEMBER_EMAIL);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(alertOf(page)).toHaveText(/^A link for this address was asked for a moment ago\./);
  // The sender has long had time to send anything owed by now: nothing went to the address with no account.
  await expect.poll(() => mail.smtp.received.filter((message) => message.to.includes(MEMBER_EMAIL)).length).toBe(1);
  expect(mail.smtp.received.filter((message) => message.to.includes(nobody))).toEqual([]);
});

test('an admin adds a member: the invitation arrives, the page shows no link, and the link in it sets the password', async ({ page, browser }) => {
  await fromOwnNetwork(page);
  await page.goto('/login');
  await signInThroughForm(page, STAFF_EMAIL, STAFF_PASSWORD);
  await expect(page).toHaveURL('/');
  await page.goto('/staff');
  await expect(page.getByText('it is sent to their email address.')).toBeVisible();
  const email = `ivy-${Date.now()}@example.com`;
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Add staff member' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Account for ${email} created.` })).toContainText('We emailed them a link');
  await expect(page.getByLabel(`Set-password link for ${email}`)).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);

  const [invitation] = await mail.smtp.waitFor(email);
  expect(invitation.subject).toBe('Your staff account at The Greenhouse');
  const member = await browser.newContext({ baseURL: MAIL_E2E_URL });
  const memberPage = await member.newPage();
  await setPassword(memberPage, invitation.link!, email, 'ivy climbs the old wall');
  await member.close();
  await page.reload();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Active');

  // An admin's reset sends the new link the same way, and the page says so instead of showing it.
  await row.getByRole('button', { name: `Reset password of ${email}` }).click();
  await expect(row.getByText('a new link is emailed to them')).toBeVisible();
  await row.getByRole('button', { name: 'Yes, reset' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Password of ${email} reset.` })).toContainText('We emailed them a new link');
  await expect(page.getByLabel(`Set-password link for ${email}`)).toHaveCount(0);
  const [, reset] = await mail.smtp.waitFor(email, { count: 2 });
  expect(reset.subject).toBe('Set a new password for The Greenhouse');
  expect(reset.link).not.toBe(invitation.link);
});

test('with the SMTP server down, the page answers at once, and the message goes out once it is back', async ({ page }) => {
  await fromOwnNetwork(page);
  await mail.smtp.stop();
  try {
    const started = Date.now();
    await askForLink(page, STAFF_EMAIL);
    await expect(page.getByRole('status')).toContainText(SENT(STAFF_EMAIL));
    expect(Date.now() - started).toBeLessThan(10_000);
    // Tried, refused, waiting: nothing arrives while it is down.
    await page.waitForTimeout(1500);
    expect(mail.smtp.received.filter((message) => message.to.includes(STAFF_EMAIL))).toEqual([]);
  } finally {
    await mail.smtp.start();
  }
  const [message] = await mail.smtp.waitFor(STAFF_EMAIL, { timeoutMs: 20_000 });
  expect(message.link).toMatch(/\/set-password#/);
});
