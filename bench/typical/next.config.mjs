// The typical app's configuration: Next's defaults. The bench serves it the way create-next-app's
// scripts do, `next build` then `next start`, the simplest and most common way to run a Next app
// outside Vercel; `output: 'standalone'` would only package the same server differently.
/** @type {import('next').NextConfig} */
const nextConfig = {};

export default nextConfig;
