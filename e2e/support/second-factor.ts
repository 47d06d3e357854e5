// A second factor as an authenticator app holds one: the codes it shows for the key the page gave,
// and the set-up on /account or /enrol.
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect } from './fixtures';

const STEP_MS = 30_000;

/** The code an authenticator app shows for `secret`, `steps` steps from now. */
export const codeFor = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * STEP_MS });

/** Sets up a second factor from the page `page` is on (/account or /enrol): the key it shows, and the recovery codes. */
export async function enrol(page: Page, options: { beforeConfirming?: () => Promise<unknown> } = {}): Promise<{ secret: string; recoveryCodes: string[] }> {
  await page.getByRole('button', { name: 'Set up a second factor' }).click();
  await expect(page.getByRole('img', { name: 'QR code of your second factor for an authenticator app' })).toBeVisible();
  const secret = (await page.getByLabel('Key for your authenticator app').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await options.beforeConfirming?.();
  await page.getByText('The whole setup address').click();
  await expect(page.getByText(/^otpauth:\/\/totp\//)).toContainText(`secret=${secret}`);
  await page.getByLabel('Code the app shows now').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Your second factor is on.')).toBeVisible();
  const recoveryCodes = await page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem').allTextContents();
  expect(recoveryCodes).toHaveLength(10);
  return { secret, recoveryCodes };
}

/** Chooses whom the store requires a second factor of, on /staff (the page must be an admin's with a second factor). */
export async function requireSecondFactorOf(page: Page, label: 'Everyone' | 'Admins' | 'Nobody (each person chooses)', saved: string) {
  await page.goto('/staff');
  const rule = page.getByRole('region', { name: 'Second factor' });
  await page.waitForFunction(() => {
    const element = document.querySelector('#require-off');
    return element !== null && Object.keys(element).some((key) => key.startsWith('__reactProps$'));
  });
  await rule.getByLabel(label).check();
  await rule.getByRole('button', { name: 'Save' }).click();
  await expect(rule.getByRole('status')).toHaveText(saved);
}
