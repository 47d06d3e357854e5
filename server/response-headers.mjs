// @ts-check
// The headers next.config.js gives every answer, in one module that both next.config.js and the
// production server read: Next applies them to what its router answers (headers()), the direct
// path (server/direct-routes.ts) to what it answers. JavaScript, because next.config.js loads it as
// it is (npm run typecheck checks it, // @ts-check).
import { OUTSIDE_PROXY_SOURCE, PROXY_PATH } from './direct-paths.mjs';

/** @typedef {{ key: string, value: string }} Header */

/** @type {Header[]} Headers every response carries, pages and API alike. */
export const SECURITY_HEADERS = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
];

// The pages proxy.ts serves get a Content-Security-Policy with a fresh nonce per request. Every
// other answer (the API's JSON, 404 pages under /plants and /api, next-auth's pages) gets this
// one, which runs no script at all. A browser enforces every CSP header an answer carries, so a
// page with both would run none of its scripts either: this rule's paths are exactly those the
// proxy's matcher leaves out (the same lookahead, positive here and negative there, both from
// server/direct-paths.mjs), and test/api/security-headers.test.ts checks that every HTML answer
// carries exactly one.
export const STATIC_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  // next-auth's pages and Next's 404 page style themselves inline.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** @type {{ source: string, headers: Header[] }[]} next.config.js's headers(): unconditional rules only. */
export const HEADER_RULES = [
  { source: '/:path*', headers: SECURITY_HEADERS },
  { source: OUTSIDE_PROXY_SOURCE, headers: [{ key: 'Content-Security-Policy', value: STATIC_CONTENT_SECURITY_POLICY }] },
];

const OUTSIDE_PROXY_HEADERS = [...SECURITY_HEADERS, ...HEADER_RULES[1].headers];

/**
 * The headers HEADER_RULES give an answer on `pathname`, as Next applies them: the security headers
 * everywhere, and the static policy on every path proxy.ts does not see.
 * @param {string} pathname
 * @returns {Header[]}
 */
export function configuredHeadersFor(pathname) {
  return PROXY_PATH.test(pathname) ? SECURITY_HEADERS : OUTSIDE_PROXY_HEADERS;
}
