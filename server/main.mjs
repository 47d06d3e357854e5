// The production server: `node .next/standalone/server.js` (npm run build installs this file there
// in place of the one next build writes). The API's route handlers are answered directly
// (direct-routes.mjs); everything else, pages, assets, sign-in, goes through Next's own request
// handler, as under Next's server. API_DIRECT_ROUTES=off sends everything through Next.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDirectRoutes } from './direct-routes.mjs';
import { settleForwardedHeaders, trustedProxyHops } from './forwarded-headers.mjs';

const require = createRequire(import.meta.url);
// This file sits in .next/standalone/plant-store-server/; the standalone app is one folder up.
const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

process.env.NODE_ENV = 'production';
process.chdir(dir);

const port = Number.parseInt(process.env.PORT ?? '', 10) || 3000;
const hostname = process.env.HOSTNAME || '0.0.0.0';
const keepAliveTimeout = Number.parseInt(process.env.KEEP_ALIVE_TIMEOUT ?? '', 10);
const proxyHops = trustedProxyHops();

// What Next's generated server.js embeds: the build's resolved next.config.
const { config } = JSON.parse(readFileSync(path.join(dir, '.next', 'required-server-files.json'), 'utf8'));
process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(config);

const next = require('next');
const app = next({ dev: false, dir, hostname, port, conf: config });
await app.prepare();
const handleWithNext = app.getRequestHandler();
const direct = process.env.API_DIRECT_ROUTES === 'off' ? null : await createDirectRoutes(dir);

const server = http.createServer((request, response) => {
  // First, so no path believes a client's X-Forwarded-* unless TRUST_PROXY says so.
  settleForwardedHeaders(request, proxyHops);
  if (direct?.serve(request, response)) return;
  handleWithNext(request, response).catch((error) => {
    process.stderr.write(`${error?.stack ?? error}\n`);
    if (!response.headersSent) response.writeHead(500).end();
  });
});
if (keepAliveTimeout >= 0) server.keepAliveTimeout = keepAliveTimeout;

// As Next's server: stop accepting, let the requests in flight finish, then exit with the
// signal's code. lib/shutdown.ts marks answers `Connection: close` meanwhile, so busy
// keep-alive clients cannot hold the process open.
let stopping = false;
for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]]) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close(async () => {
      await app.close().catch((error) => process.stderr.write(`${error?.stack ?? error}\n`));
      process.exit(code);
    });
    server.closeIdleConnections();
  });
}

server.listen(port, hostname, () => {
  const served = direct ? `route handlers answered directly: ${direct.routes.join(', ')}` : 'everything through Next (API_DIRECT_ROUTES=off)';
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'listening', url: `http://${hostname}:${port}`, served })}\n`);
});
