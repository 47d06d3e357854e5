// The request histogram (http_server_request_duration_seconds), recorded for every answered
// request in one place, server/main.mjs's serve(), so the direct path, Next's router and the pages
// are all counted alike. Labels follow the OpenTelemetry HTTP conventions: the method, the status,
// and the route template (`/plants/{id}`), never the raw path. The templates are the build's own
// routes (routes-manifest.json, which build-check.mjs also reads): static ones by exact path, then
// the dynamic ones in Next's order, so a path is labelled with the route Next would match. A path no
// route matches (a 404, a static file) gets no http_route label, so clients cannot add series.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { recording, recordRequest } from '../lib/metrics/registry.ts';

/** A page as Next names it (`/plants/[id]`, `/api/auth/[...nextauth]`) as a route template (`/plants/{id}`, `/api/auth/{nextauth}`). */
export function templateOf(page) {
  return page.replace(/\[(?:\.\.\.)?(\w+)\]/g, '{$1}');
}

/** The route template of `pathname` by the build's routes (routes-manifest.json in `distDir`), or null. */
export function routeTemplates(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, 'routes-manifest.json'), 'utf8'));
  // Next's own entries (/_not-found, /_global-error) are not paths a client names.
  const own = (route) => !route.page.startsWith('/_');
  const statics = new Map((manifest.staticRoutes ?? []).filter(own).map((route) => [route.page, templateOf(route.page)]));
  const dynamics = (manifest.dynamicRoutes ?? []).filter(own).map((route) => ({ regex: new RegExp(route.regex), template: templateOf(route.page) }));
  return (pathname) => {
    const exact = statics.get(pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname);
    if (exact !== undefined) return exact;
    for (const route of dynamics) if (route.regex.test(pathname)) return route.template;
    return null;
  };
}

/**
 * `observe(request, response)` for each request as it arrives: once the answer is sent, its
 * duration is recorded under the route of the path in `observed.path` (set when the target is
 * settled; left null for a request refused before that). Null when METRICS=off.
 */
export function createRequestMetrics(distDir) {
  if (!recording) return null;
  const routeOf = routeTemplates(distDir);
  return (request, response) => {
    const started = performance.now();
    const observed = /** @type {{ path: string | null }} */ ({ path: null });
    response.once('finish', () => {
      recordRequest(request.method, observed.path === null ? null : routeOf(observed.path), response.statusCode, (performance.now() - started) / 1000);
    });
    return observed;
  };
}
