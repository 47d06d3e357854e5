// Every spec runs with these: any console error or uncaught page error fails the test, and
// `signIn` signs the seeded staff member in through next-auth's endpoint, as the form does.
import { test as base, expect, type Page } from '@playwright/test';
import { STAFF_EMAIL, STAFF_PASSWORD } from './staff';

/**
 * Waits until React has hydrated `selector`'s element (React keeps its props on the element then),
 * so what a journey types and clicks reaches the page's script, however slowly it loaded. Before
 * that a form is plain HTML: the sign-in form would post itself and come back empty.
 */
export async function untilHydrated(page: Page, selector: string) {
  await page.waitForFunction((css) => {
    const element = document.querySelector(css);
    return element !== null && Object.keys(element).some((key) => key.startsWith('__reactProps$'));
  }, selector);
}

/** Signs in through the page's form, once the page's script has taken it over. */
export async function signInThroughForm(page: Page, email = STAFF_EMAIL, password = STAFF_PASSWORD) {
  await untilHydrated(page, 'form:has(input[type="password"])');
  await submitSignInForm(page, email, password);
}

/** Fills the sign-in form and sends it (the click waits for its script to enable the button). */
async function submitSignInForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * The page's messages for people. Next's route announcer also has role="alert" (empty, or the
 * new page's title after a client-side navigation), so it is left out.
 */
export const alertOf = (page: Page) => page.locator('[role="alert"]:not(#__next-route-announcer__)').filter({ hasText: /\S/ });

// The browser logs every 4xx answer as a console error. These are the answers the journeys
// provoke on purpose (refused sign-ins and tokens, a conflict); anything else fails the test.
const EXPECTED_REFUSALS = /^Failed to load resource: the server responded with a status of (401|409) /;

type ConsoleErrors = { allow(pattern: RegExp): void };
type Fixtures = { signIn: (path?: string) => Promise<void>; consoleErrors: ConsoleErrors };

export const test = base.extend<Fixtures>({
  consoleErrors: [
    async ({ page }, provide) => {
      const errors: string[] = [];
      const allowed = [EXPECTED_REFUSALS];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await provide({ allow: (pattern) => allowed.push(pattern) });
      const unexpected = errors.filter((text) => !allowed.some((pattern) => pattern.test(text)));
      expect(unexpected, 'console errors on the page').toEqual([]);
    },
    { auto: true },
  ],
  // The journeys that are not about signing in sign in as the form does, without loading it: the
  // form's own POST to next-auth, from the page's browser context, so the session cookie lands in
  // it. Loading and hydrating the sign-in page before every journey cost about a tenth of the
  // journeys' CPU (docs/testing.md, Playwright); the form itself is what e2e/sign-in.spec.ts uses,
  // and the journeys that sign in a member of their own (signInThroughForm).
  signIn: async ({ page }, provide) => {
    await provide(async (path = '/') => {
      const csrfToken = await csrfTokenFor(page);
      const answer = await page.request.post('/api/auth/callback/credentials', {
        form: { csrfToken, email: STAFF_EMAIL, password: STAFF_PASSWORD, callbackUrl: path, json: 'true' },
      });
      expect(answer.status(), 'sign-in through next-auth').toBe(200);
      // Where next-auth sends the browser: the path asked for (relative, as no origin is configured).
      expect((await answer.json()).url).toBe(path);
      await page.goto(path);
      await expect(page).toHaveURL(path);
    });
  },
});

export { expect };

/** A random id above 2^53, as digits: precision loss anywhere would show. */
export function uniqueId(): string {
  return (2n ** 60n + BigInt(Math.floor(Math.random() * 2 ** 40)) * 1000n + BigInt(Date.now() % 1000)).toString();
}

/** next-auth's CSRF token for `page`'s browser context, which its POSTs to /api/auth must carry. */
export async function csrfTokenFor(page: Page): Promise<string> {
  const { csrfToken } = (await (await page.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  return csrfToken;
}
