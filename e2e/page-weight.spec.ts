// How much JavaScript pages cost a browser with an empty cache: every script a page downloads
// until the network is idle, gzipped. The form page has a budget; the figures are in docs/performance.md.
// And the scripts every page runs as it loads reach the browser with Chromium's compile hint first.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContextOptions } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { scriptsLoadedBy } from './support/scripts';

// The target was 120 KB; docs/performance.md (Page weight) says why this stack cannot reach it.
const FORM_PAGE_BUDGET_BYTES = 180 * 1024;

async function scriptWeight(browser: Browser, path: string, ready: RegExp, options: BrowserContextOptions = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const loaded = scriptsLoadedBy(page);
  await page.goto(path);
  await expect(page.getByRole('button', { name: ready })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const scripts = new Map([...(await loaded.bodies())].map(([name, body]) => [name, gzipSync(body).length]));
  await context.close();
  const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
  const sizes = [...scripts].sort((a, b) => b[1] - a[1]).map(([name, size]) => `${(size / 1024).toFixed(1)} ${name.split('/').pop()}`);
  console.log(`${path}: ${scripts.size} scripts, ${(total / 1024).toFixed(1)} KB gzipped (${sizes.join(', ')})`);
  return { total, count: scripts.size };
}

test('the form page loads at most 180 KB of JavaScript, gzipped', async ({ page, browser, signIn }) => {
  await signIn('/');
  // A fresh context with only the session cookie: nothing cached from signing in.
  const form = await scriptWeight(browser, '/', /Add plant/, { storageState: await page.context().storageState() });
  const login = await scriptWeight(browser, '/login', /^Sign in$/);
  expect(form.count).toBeGreaterThan(0);
  expect(login.total).toBeLessThan(form.total);
  expect(form.total).toBeLessThanOrEqual(FORM_PAGE_BUDGET_BYTES);
});

test('the scripts every page runs as it loads start with the hint to compile them as they download', async ({ page }) => {
  // The build's own list of them (scripts/build.mjs, hintCompileOnLoad).
  const { rootMainFiles } = JSON.parse(readFileSync('.next/build-manifest.json', 'utf8')) as { rootMainFiles: string[] };
  const scripts = scriptsLoadedBy(page);
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const served = await scripts.texts();
  expect(rootMainFiles.length).toBeGreaterThan(0);
  for (const file of rootMainFiles) {
    const script = served.get(`/_next/${file}`);
    expect(script, `${file} was loaded`).toBeDefined();
    expect(script!.startsWith('//# allFunctionsCalledOnLoad\n'), file).toBe(true);
  }
  // A page's own chunks are compiled as they are called, as by default.
  const own = [...served].filter(([name]) => !rootMainFiles.some((file) => name.endsWith(file)));
  expect(own.length).toBeGreaterThan(0);
  for (const [name, script] of own) expect(script.startsWith('//#'), name).toBe(false);
});

test('the pages with a form or a file to read load zod and the schemas only when they are first used', async ({ page, browser, signIn }) => {
  await signIn('/');
  const storageState = await page.context().storageState();
  for (const [path, role, ready] of [
    ['/', 'button', /Add plant/],
    ['/catalogue', 'button', /Search/],
    ['/import', 'heading', /Import plants/],
  ] as const) {
    // A fresh context with only the session cookie: nothing cached from the pages before.
    const context = await browser.newContext({ storageState });
    const fresh = await context.newPage();
    const scripts = scriptsLoadedBy(fresh);
    await fresh.goto(path);
    await expect(fresh.getByRole(role, { name: ready })).toBeVisible();
    await fresh.waitForLoadState('networkidle');
    const loaded = [...(await scripts.texts()).values()];
    await context.close();
    expect(loaded.length, path).toBeGreaterThan(0);
    expect(loaded.filter((script) => script.includes('ZodError')).length, `${path}: scripts holding zod`).toBe(0);
  }
});
