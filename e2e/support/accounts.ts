// Staff accounts made the way an admin makes them: on /staff, with the one-time link handed over.
import type { Browser, Page } from '@playwright/test';
import { expect, signInThroughForm } from './fixtures';

/** Adds an account on /staff (the admin's page must be signed in) and returns its set-password link. */
export async function addMember(adminPage: Page, email: string, role: 'Staff' | 'Admin' = 'Staff'): Promise<string> {
  await adminPage.goto('/staff');
  await adminPage.getByLabel('Email', { exact: true }).fill(email);
  await adminPage.getByLabel('Role', { exact: true }).selectOption({ label: role });
  await adminPage.getByRole('button', { name: 'Add staff member' }).click();
  const shown = adminPage.getByRole('status').filter({ hasText: `Account for ${email} created.` });
  await expect(shown).toContainText('works once and expires in 24 hours');
  return (await shown.getByLabel(`Set-password link for ${email}`).textContent())!;
}

/** Opens the link in `page`, sets the password and signs in with it. */
export async function setPasswordAndSignIn(page: Page, link: string, email: string, password: string) {
  await page.goto(link);
  await expect(page.getByText(`For ${email}. This link works once.`)).toBeVisible();
  await page.getByLabel('New password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status')).toContainText(`Password set for ${email}.`);
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await signInThroughForm(page, email, password);
  await expect(page).toHaveURL('/');
}

/** A second person at another computer: a context of their own. */
export async function anotherBrowser(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  return { context, page: await context.newPage() };
}
