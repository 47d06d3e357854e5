// Headers every response carries, pages and API alike. The page CSP needs a fresh nonce per
// request, so it is set in proxy.ts instead.
const securityHeaders = [
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=(), payment=()' },
];

/** @type {import('next').NextConfig} */
const nextConfig = {
  // A self-contained server in .next/standalone (node .next/standalone/server.js): what `npm start`,
  // the Docker image and the tests run. scripts/build.mjs copies the static files in beside it.
  output: 'standalone',
  // The tracer follows the default database path into ./data; the database and the generated
  // auth secret are runtime state and must never ship inside a build (or a Docker image).
  outputFileTracingExcludes: { '*': ['data/**', '.tmp/**', 'bench/results/**'] },
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default nextConfig;
