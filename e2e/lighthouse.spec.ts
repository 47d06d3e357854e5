// Lighthouse, with its desktop preset and its mobile one (a phone's screen, a slow network and a
// slower CPU, simulated), on every page, signed in where the page needs it: performance at least 90,
// accessibility and best practices 100. One test per page and preset, each
// with its own run in a Chromium of its own that Lighthouse drives over the DevTools protocol. The
// scores are printed; docs/performance.md (Lighthouse) has the last ones seen.
import { createServer } from 'node:net';
import { chromium, expect, test, type Browser } from '@playwright/test';
import lighthouse, { defaultConfig, desktopConfig } from 'lighthouse';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import { addMember, setPasswordAndSignIn } from './support/accounts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { signInThroughForm } from './support/fixtures';
import { enrol, requireSecondFactorOf } from './support/second-factor';

const THRESHOLDS = { performance: 90, accessibility: 100, 'best-practices': 100 } as const;
type Category = keyof typeof THRESHOLDS;

// Every page of the app: the three a visitor sees signed out, and the staff pages (the admin's
// account sees them all).
const PAGES = ['/login', '/set-password', '/forgot-password', '/', '/catalogue', '/import', '/tokens', '/docs', '/account', '/staff', '/webhooks', '/audit', '/backups'];
const SIGNED_OUT = new Set(['/login', '/set-password', '/forgot-password']);
// And the page an account is sent to when the store requires a second factor of it and it has
// none: scored with such an account's session, while the rule asks it of everyone. The rule is the
// whole store's, and would send the seeded admin there too, so these tests run in a project of
// their own (`lighthouse-enrol`, playwright.config.ts) that `lighthouse` waits for: nothing else
// is scored meanwhile.
const ENROL = '/enrol';

let browser: Browser;
let port: number;
let cookie: string;

// A page's first run is a lean one; when it misses, the four runs that judge it with it are
// Lighthouse's full run. The lean run leaves out two things that no score counts and that cost
// about 0.6 s and 1 s of every run:
// - the performance category's diagnostics (its audits of weight 0, and the gatherers only they
//   need: the back/forward cache check alone reloads the page), all but the longest tasks, which are
//   printed;
// - the host's benchmark index, a one-second loop in the page before every run: the lean runs
//   report the one measured as the file starts in their worker (npm test runs two, each with its
//   own Chromium), and the full runs measure their own, since a slow host is what a miss most often
//   means.
// The lean run scored as the full one (mobile `/login` and `/set-password`, six runs each: the same
// scores, with the same spread of blocking time and largest paint), and the 24 tests took 83 s
// instead of 109 (docs/testing.md, Playwright).
const weighted = new Set(Object.values(defaultConfig.categories!).flatMap(({ auditRefs }) => auditRefs.filter(({ weight }) => weight > 0).map(({ id }) => id)));
const UNSCORED_DIAGNOSTICS = defaultConfig.categories!.performance.auditRefs
  .filter(({ id, weight, group }) => weight === 0 && group !== 'metrics' && !weighted.has(id) && id !== 'long-tasks')
  .map(({ id }) => id);
const measureBenchmarkIndex = pageFunctions.computeBenchmarkIndex;
let benchmarkIndexAtStart: number;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.beforeAll(async ({ browser: journeys, baseURL }) => {
  // The session cookie of the seeded admin, signed in through the real form once.
  const context = await journeys.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/login');
  await signInThroughForm(page);
  await expect(page).toHaveURL('/');
  cookie = (await context.cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');
  await context.close();

  port = await freePort();
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`] });
  const blank = await browser.newPage();
  benchmarkIndexAtStart = await blank.evaluate(measureBenchmarkIndex);
  await blank.close();
});

test.afterAll(async () => {
  await browser?.close();
});

// Both presets by default; LIGHTHOUSE_PRESETS=desktop or =mobile runs one alone.
const PRESETS = (process.env.LIGHTHOUSE_PRESETS ?? 'desktop,mobile').split(',') as ('desktop' | 'mobile')[];

type Run = { scores: Record<Category, number>; lost: string[] };

/** One Lighthouse run of `path` with `preset`, lean or full (above): its scores, printed with its metrics and what cost points. */
async function audit(baseURL: string, preset: 'desktop' | 'mobile', path: string, kind: 'lean' | 'full', session: string): Promise<Run> {
  // Lighthouse evaluates this function's source in the page; the lean run's answers the figure at once.
  pageFunctions.computeBenchmarkIndex = kind === 'lean' ? (new Function(`return ${benchmarkIndexAtStart};`) as () => number) : measureBenchmarkIndex;
  const result = await lighthouse(
    `${baseURL}${path}`,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: Object.keys(THRESHOLDS),
      // Pictures of the page, which no score counts: the full-page one alone costs seconds of CPU.
      disableFullPageScreenshot: true,
      // How long the page must stay quiet before the run ends (Lighthouse waits 1 s for each by
      // default). Its simulated throttling computes the scores from what the page did, and these
      // pages are done well within half a second of loading: the scores came out the same
      // (97–100 on mobile, 100 on desktop), and the 24 runs took 115 s instead of 140.
      pauseAfterFcpMs: 500,
      pauseAfterLoadMs: 500,
      networkQuietThresholdMs: 500,
      cpuQuietThresholdMs: 500,
      skipAudits: ['screenshot-thumbnails', 'final-screenshot', ...(kind === 'lean' ? UNSCORED_DIAGNOSTICS : [])],
      ...(SIGNED_OUT.has(path) ? {} : { extraHeaders: { Cookie: session } }),
    },
    preset === 'desktop' ? desktopConfig : undefined,
  );
  const report = result!.lhr;
  expect(report.runtimeError, path).toBeUndefined();
  // Landed where it was sent: a signed-in page that fell back to /login would score the wrong page.
  expect(new URL(report.finalDisplayedUrl).pathname, path).toBe(path);

  const scores = Object.fromEntries(
    (Object.keys(THRESHOLDS) as Category[]).map((id) => [id, Math.round((report.categories[id].score ?? 0) * 100)]),
  ) as Record<Category, number>;
  // What cost points, to say why when a threshold is missed.
  const lost = (Object.keys(THRESHOLDS) as Category[]).flatMap((id) =>
    report.categories[id].auditRefs
      .filter((ref) => ref.weight > 0 && (report.audits[ref.id].score ?? 1) < 1)
      .map((ref) => `${id}: ${ref.id} ${report.audits[ref.id].displayValue ?? report.audits[ref.id].score}`),
  );
  const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']
    .map((id) => `${id} ${report.audits[id].displayValue}`)
    .join(', ');
  // Where blocking time came from: the longest main-thread tasks (as simulated), by the script they
  // ran, the page's own document, or none (style, layout and parsing are unattributable).
  const longTasks = ((report.audits['long-tasks']?.details as { items?: { url?: string; duration: number; startTime: number }[] } | undefined)?.items ?? [])
    .slice(0, 3)
    .map(({ url, duration, startTime }) => `${Math.round(duration)} ms at ${Math.round(startTime)} ms (${url ? (url === report.finalDisplayedUrl ? 'the document' : url.split('/').pop()) : 'unattributable'})`);
  const tasks = report.audits['total-blocking-time'].numericValue && longTasks.length ? `; longest tasks: ${longTasks.join(', ')}` : '';
  console.log(`${preset} ${path}: ${JSON.stringify(scores)} (${metrics}; ${kind} run, benchmarkIndex ${report.environment.benchmarkIndex}${kind === 'lean' ? ' as the file started' : ''}${tasks})${lost.length ? `; below 1: ${lost.join('; ')}` : ''}`);
  return { scores, lost };
}

const passes = ({ scores }: Run) => (Object.keys(THRESHOLDS) as Category[]).every((id) => scores[id] >= THRESHOLDS[id]);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Scores `path` with `preset` (signed in with `session`) and holds it to the thresholds. */
async function judge(baseURL: string, preset: 'desktop' | 'mobile', path: string, session: string) {
  // The performance score of one run varies with what else the machine's CPU did meanwhile (the
  // same build's mobile `/` scored 86 to 99 in runs back to back). As Lighthouse's own guidance on
  // variability advises (the median of five runs, about half as variable as one), a run that
  // misses is judged with four more, by the median of the five.
  const runs = [await audit(baseURL, preset, path, 'lean', session)];
  if (!passes(runs[0])) while (runs.length < 5) runs.push(await audit(baseURL, preset, path, 'full', session));
  const judged = Object.fromEntries(
    (Object.keys(THRESHOLDS) as Category[]).map((id) => [id, median(runs.map(({ scores }) => scores[id]))]),
  ) as Record<Category, number>;
  const lost = [...new Set(runs.flatMap((run) => run.lost))].join('; ');
  if (runs.length > 1) console.log(`${preset} ${path}: judged by the median of ${runs.length} runs: ${JSON.stringify(judged)}`);

  expect(judged.performance, `${path} performance; ${lost}`).toBeGreaterThanOrEqual(THRESHOLDS.performance);
  expect(judged.accessibility, `${path} accessibility; ${lost}`).toBe(THRESHOLDS.accessibility);
  expect(judged['best-practices'], `${path} best practices; ${lost}`).toBe(THRESHOLDS['best-practices']);
}

for (const preset of PRESETS) for (const path of PAGES) {
  test(`Lighthouse ${preset} ${path}: performance ≥ ${THRESHOLDS.performance}, accessibility and best practices 100`, async ({ baseURL }) => {
    test.setTimeout(120_000);
    await judge(baseURL!, preset, path, cookie);
  });
}

for (const preset of PRESETS) {
  test(`Lighthouse ${preset} ${ENROL}, as an account that must set up a second factor: performance ≥ ${THRESHOLDS.performance}, accessibility and best practices 100`, async ({ browser: journeys, baseURL }) => {
    test.setTimeout(120_000);
    // Only an admin with a second factor may set the rule: a new one, so the seeded admin's
    // account, which the other pages are scored with, stays as it was. And a new staff member,
    // signed in with a password alone.
    const stamp = `${preset}-${Date.now()}`;
    const password = 'a second factor to set up';
    const context = await journeys.newContext({ baseURL });
    const newcomer = await journeys.newContext({ baseURL });
    try {
      const page = await context.newPage();
      await page.goto('/login');
      await signInThroughForm(page);
      await expect(page).toHaveURL('/');
      const adminEmail = `lighthouse-admin-${stamp}@example.com`;
      const adminLink = await addMember(page, adminEmail, 'Admin');
      const newcomerEmail = `lighthouse-newcomer-${stamp}@example.com`;
      const newcomerLink = await addMember(page, newcomerEmail);
      await page.context().clearCookies();
      await setPasswordAndSignIn(page, adminLink, adminEmail, password);
      await page.goto('/account');
      await enrol(page);

      const newcomerPage = await newcomer.newPage();
      await setPasswordAndSignIn(newcomerPage, newcomerLink, newcomerEmail, password);
      const session = (await newcomer.cookies()).map(({ name, value }) => `${name}=${value}`).join('; ');

      await requireSecondFactorOf(page, 'Everyone', 'Saved: a second factor is required of everyone.');
      try {
        // The newcomer's session is now sent to /enrol from the home page.
        await newcomerPage.goto('/');
        await expect(newcomerPage).toHaveURL(`${ENROL}?callbackUrl=%2F`);
        await expect(newcomerPage.getByRole('heading', { name: 'Set up a second factor' })).toBeVisible();
        await judge(baseURL!, preset, ENROL, session);
      } finally {
        await requireSecondFactorOf(page, 'Nobody (each person chooses)', 'Saved: nobody is required to have a second factor.');
      }
    } finally {
      await Promise.all([context.close(), newcomer.close()]);
    }
  });
}
