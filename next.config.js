import { OUTSIDE_PROXY_SOURCE } from './server/direct-paths.mjs';

// Headers every response carries, pages and API alike.
const securityHeaders = [
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
const staticContentSecurityPolicy = [
  "default-src 'none'",
  // next-auth's pages and Next's 404 page style themselves inline.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A self-contained server in .next/standalone (node .next/standalone/server.js): what `npm start`,
  // the Docker image and the tests run. scripts/build.mjs copies the static files in beside it.
  output: 'standalone',
  // The tracer follows the default database path into ./data; the database and the generated
  // auth secret are runtime state and must never ship inside a build (or a Docker image).
  outputFileTracingExcludes: { '*': ['data/**', '.tmp/**', 'bench/results/**'] },
  poweredByHeader: false,
  // One copy of prom-client in the process, loaded from the standalone node_modules by every route
  // bundle and by server/main.mjs (scripts/build.mjs leaves it out of the server's bundle too).
  serverExternalPackages: ['prom-client'],
  // forbidden(): admin pages answer a staff member with 403 and app/(staff)/forbidden.tsx.
  experimental: { authInterrupts: true },
  reactStrictMode: true,
  async headers() {
    return [
      { source: '/:path*', headers: securityHeaders },
      { source: OUTSIDE_PROXY_SOURCE, headers: [{ key: 'Content-Security-Policy', value: staticContentSecurityPolicy }] },
    ];
  },
};

export default nextConfig;
