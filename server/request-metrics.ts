// The request histogram (http_server_request_duration_seconds), recorded for every answered
// request in one place, server/main.ts's serve(), so the direct path, Next's router and the pages
// are all counted alike. Labels follow the OpenTelemetry HTTP conventions: the method, the status,
// and the route template (`/plants/{id}`), never the raw path. The templates are the build's own
// routes (routes-manifest.json): static ones by exact path, then
// the dynamic ones in Next's order, so a path is labelled with the route Next would match. A path no
// route matches (a 404, a static file) gets no http_route label, so clients cannot add series.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { log } from '../lib/log';
import { recording, recordRequest } from '../lib/metrics/registry';

/** A page as Next names it (`/plants/[id]`, `/api/auth/[...nextauth]`) as a route template (`/plants/{id}`, `/api/auth/{nextauth}`). */
export function templateOf(page: string): string {
  return page.replace(/\[(?:\.\.\.)?(\w+)\]/g, '{$1}');
}

/** The route template of `pathname` by the build's routes (routes-manifest.json in `distDir`), or null. */
export function routeTemplates(distDir: string): (pathname: string) => string | null {
  const manifest = JSON.parse(readFileSync(path.join(distDir, 'routes-manifest.json'), 'utf8'));
  if (!Array.isArray(manifest.staticRoutes) || !Array.isArray(manifest.dynamicRoutes)) throw new Error('it lists no staticRoutes and dynamicRoutes');
  // Next's own entries (/_not-found, /_global-error) are not paths a client names.
  type ManifestRoute = { page: string; regex: string };
  const own = (route: ManifestRoute) => !route.page.startsWith('/_');
  const statics = new Map<string, string>((manifest.staticRoutes ?? []).filter(own).map((route: ManifestRoute) => [route.page, templateOf(route.page)]));
  const dynamics: { regex: RegExp; template: string }[] = (manifest.dynamicRoutes ?? []).filter(own).map((route: ManifestRoute) => ({ regex: new RegExp(route.regex), template: templateOf(route.page) }));
  return (pathname: string) => {
    const exact = statics.get(pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname);
    if (exact !== undefined) return exact;
    for (const route of dynamics) if (route.regex.test(pathname)) return route.template;
    return null;
  };
}

/**
 * routeTemplates, or no templates at all when this Next writes a manifest that cannot be read so:
 * the requests are still counted, without their route, and the log says why once.
 */
export function routeTemplatesOrNone(distDir: string): (pathname: string) => string | null {
  try {
    return routeTemplates(distDir);
  } catch (error) {
    log.warn("the request histogram has no route labels: the build's routes-manifest.json could not be read", {
      error: error instanceof Error ? error.message : String(error),
    });
    return () => null;
  }
}

/**
 * `observe(request, response)` for each request as it arrives: once the answer is sent, its
 * duration is recorded under the route of the path in `observed.path` (set when the target is
 * settled; left null for a request refused before that). Null when METRICS=off.
 */
/** Where a request's route is noted once its target is settled. */
export type Observed = { path: string | null };

/** What of a request and its response the metrics read. */
type Answered = { statusCode: number; once(event: 'finish', listener: () => void): unknown };

export function createRequestMetrics(distDir: string): ((request: { method?: string }, response: Answered) => Observed) | null {
  if (!recording) return null;
  const routeOf = routeTemplatesOrNone(distDir);
  return (request, response) => {
    const started = performance.now();
    const observed: Observed = { path: null };
    response.once('finish', () => {
      recordRequest(request.method ?? '', observed.path === null ? null : routeOf(observed.path), response.statusCode, (performance.now() - started) / 1000);
    });
    return observed;
  };
}
