// The API's paths come from one place (server/direct-paths.mjs). proxy.ts's matcher must be a
// literal, so this is what keeps it the shared one: and the shared one must leave out exactly the
// app's route handlers (every direct path among them) and take in every page.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { config } from '../../proxy';
import { DIRECT_PATH_SAMPLES, DIRECT_ROUTES, NEXT_ONLY_UNDER_PLANTS, OUTSIDE_PROXY_SOURCE, PROXY_MATCHER, STATIC_UNDER_PLANTS } from '../../server/direct-paths.mjs';
import nextConfig from '../../next.config.js';

/** The URL paths of the app's files named `name` (route groups dropped, [param] as a sample value). */
function appPaths(name: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const segment = /^\(.*\)$/.test(entry.name) ? null : entry.name.replace(/^\[\.{0,3}(\w+)\]$/, 'sample-$1');
        walk(path.join(dir, entry.name), segment === null ? segments : [...segments, segment]);
      } else if (entry.name === name) {
        found.push(`/${segments.join('/')}`);
      }
    }
  };
  walk(path.resolve('app'), []);
  return found;
}

// Next compiles a matcher like this one to an anchored regular expression over the path.
const proxyRuns = (pathname: string) => new RegExp(`^${PROXY_MATCHER}$`).test(pathname);

describe('the paths the direct path answers and the proxy leaves alone', () => {
  it("are proxy.ts's matcher, which is the shared one, literally", () => {
    expect(config.matcher).toEqual([PROXY_MATCHER]);
  });

  it("are next.config.js's static-policy rule, the same lookahead made positive", async () => {
    const rules = await nextConfig.headers!();
    expect(rules.map((rule) => rule.source)).toContain(OUTSIDE_PROXY_SOURCE);
    expect(OUTSIDE_PROXY_SOURCE.replace('/:path((?=', '')).toBe(PROXY_MATCHER.replace('/((?!', ''));
  });

  it('leave every route handler out of the proxy, and every page in', () => {
    const routes = appPaths('route.ts');
    const pages = appPaths('page.tsx');
    expect(routes).toEqual(expect.arrayContaining(['/plants', '/plants/sample-id', '/api/health', '/openapi.json']));
    expect(pages).toEqual(expect.arrayContaining(['/', '/login']));
    expect(routes.filter(proxyRuns)).toEqual([]);
    expect(pages.filter((page) => !proxyRuns(page))).toEqual([]);
  });

  it('leave every direct path out of the proxy', () => {
    expect(DIRECT_PATH_SAMPLES.filter(proxyRuns)).toEqual([]);
    for (const { page } of DIRECT_ROUTES) expect(proxyRuns(page.replace('[id]', '1'))).toBe(false);
  });

  it('are each answered by one direct route, and the samples cover every route', () => {
    for (const sample of DIRECT_PATH_SAMPLES) expect(DIRECT_ROUTES.filter(({ pattern }) => pattern.test(sample))).toHaveLength(1);
    for (const { pattern } of DIRECT_ROUTES) expect(DIRECT_PATH_SAMPLES.some((sample) => pattern.test(sample))).toBe(true);
  });

  it("leave Next's own routes under /plants, escapes, dot segments and trailing slashes to Next", () => {
    expect(NEXT_ONLY_UNDER_PLANTS).toEqual(['export', 'next-id']);
    const left = [...NEXT_ONLY_UNDER_PLANTS.map((name) => `/plants/${name}`), '/plants/', '/plants/%31', '/plants/.', '/plants/..', '/plants/1/', '/plants//1', '/PLANTS'];
    for (const pathname of left) expect(DIRECT_ROUTES.filter(({ pattern }) => pattern.test(pathname))).toEqual([]);
    // Every static route under /plants/ is one Next would prefer to [id]: it must be listed, and
    // [id]'s pattern leaves it alone whether or not it is answered directly.
    const staticUnderPlants = appPaths('route.ts').filter((route) => /^\/plants\/[^/]+$/.test(route) && !route.includes('sample-'));
    expect(staticUnderPlants.map((route) => route.slice('/plants/'.length)).sort()).toEqual([...STATIC_UNDER_PLANTS].sort());
    const idRoute = DIRECT_ROUTES.find(({ page }) => page === '/plants/[id]')!;
    for (const name of STATIC_UNDER_PLANTS) expect(idRoute.pattern.test(`/plants/${name}`), name).toBe(false);
  });
});
