// @ts-check
// The headers every answer gets come from server/response-headers.mjs, which the production server
// reads too, for what it answers itself.
import { HEADER_RULES } from './server/response-headers.mjs';

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
  // bundle and by server/main.ts (scripts/build.mjs leaves it out of the server's bundle too).
  serverExternalPackages: ['prom-client'],
  // forbidden(): admin pages answer a staff member with 403 and app/(staff)/forbidden.tsx.
  experimental: { authInterrupts: true },
  reactStrictMode: true,
  // The production server compresses every answer itself, the direct path's and Next's alike, with
  // one compressor (server/compression.ts); Vercel's edge compresses there.
  compress: false,
  // npm test checks the types itself, beside the build (scripts/test.mjs): its build leaves Next's own
  // check out, which would check them again with the build waiting on it. Every other build checks them.
  typescript: { ignoreBuildErrors: process.env.TYPES_CHECKED_BESIDE_THE_BUILD === '1' },
  async headers() {
    return HEADER_RULES;
  },
};

export default nextConfig;
