// @ts-check
// Which paths are the API's, in one place: the production server answers some of them directly
// (direct-routes.ts), proxy.ts's matcher must leave all of them alone, and next.config.js gives
// them the static Content-Security-Policy. Widening one without the others would let the proxy
// run on a path the direct path answers (so the two would differ), or leave a page without its
// nonce. proxy.ts's matcher must be a literal (Next reads it from the source without running
// it), so test/unit/direct-paths.test.ts checks that it equals PROXY_MATCHER. JavaScript, because
// next.config.js loads it (through response-headers.mjs) as it is; npm run typecheck checks it.

// The route handlers of their own under /plants/, which Next prefers to [id]: [id]'s pattern must
// leave them alone.
export const STATIC_UNDER_PLANTS = ['batch', 'export', 'next-id'];

/**
 * The route handlers answered directly. Only handlers written for this may be listed: they must use
 * nothing but the Request (no cookies(), headers() or after()). `page` is the app route (its
 * handlers are app/<page>/route.ts, which server/direct-routes.ts imports), `pattern` the paths it
 * answers: no escapes, no dot segments, no trailing slash (Next normalises those).
 * @type {{ page: string, pattern: RegExp, param?: string }[]}
 */
export const DIRECT_ROUTES = [
  { page: '/plants', pattern: /^\/plants$/ },
  {
    page: '/plants/[id]',
    pattern: new RegExp(`^/plants/(?!\\.{1,2}$)(?!(?:${STATIC_UNDER_PLANTS.join('|')})$)([A-Za-z0-9._~-]+)$`),
    param: 'id',
  },
  // Bulk loads: a store's import is a run of these, back to back.
  { page: '/plants/batch', pattern: /^\/plants\/batch$/ },
  // The dashboard's figures: a few small reads, which Next's router took longer than.
  { page: '/stats', pattern: /^\/stats$/ },
  // Health answers in the fewest turns of the event loop there are, so that a burst of costly
  // requests (sign-ins, server actions, big batches) cannot queue it behind Next's router steps.
  { page: '/api/health', pattern: /^\/api\/health$/ },
  { page: '/api/bench/empty', pattern: /^\/api\/bench\/empty$/ },
];

/**
 * The static routes under /plants/ that Next answers, even on the direct path (those DIRECT_ROUTES
 * does not list): export streams its answer, which the direct path would hold, and next-id is a
 * single read that is seldom asked.
 */
export const NEXT_ONLY_UNDER_PLANTS = STATIC_UNDER_PLANTS.filter((name) => !DIRECT_ROUTES.some(({ page }) => page === `/plants/${name}`));

/** Paths the direct routes answer, one or more per shape; the start-up check tries every rule on them. */
export const DIRECT_PATH_SAMPLES = ['/plants', '/plants/1', '/plants/-9223372036854775808', '/plants/abc', '/plants/a.b', '/plants/~_-', '/plants/batch', '/stats', '/api/health', '/api/bench/empty'];

/**
 * What proxy.ts never sees, as the start of a path (regular expression source): the API's route
 * handlers (every direct path among them), the OpenAPI document and static files.
 */
export const OUTSIDE_PROXY = ['plants', 'audit-events', 'metrics', 'stats', 'api/', 'backups/', 'openapi\\.json', '_next/static', '_next/image', 'favicon\\.ico', 'icon\\.svg'];

/** proxy.ts's `config.matcher[0]`: every path but those. */
export const PROXY_MATCHER = `/((?!${OUTSIDE_PROXY.join('|')}).*)`;

/** The paths proxy.ts sees, the app's pages among them, as a regular expression on a path. */
export const PROXY_PATH = new RegExp(`^${PROXY_MATCHER}$`);

/** next.config.js's source for the static policy: exactly those (the same lookahead, positive). */
export const OUTSIDE_PROXY_SOURCE = `/:path((?=${OUTSIDE_PROXY.join('|')}).*)`;
