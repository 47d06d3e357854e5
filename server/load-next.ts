// Next, loaded before anything else of the server but the V8 flags: loading Next sets up the Node
// environment its modules expect (AsyncLocalStorage among them), and what the route handlers import
// of Next (next/headers, next/server: Next's own copy, which the bundle requires, see
// scripts/build.mjs) needs it as it loads. `next` is Next's public custom-server function.
import { createRequire } from 'node:module';

// Next's types declare NODE_ENV read-only; the server is what sets it, before Next loads.
// eslint-disable-next-line no-restricted-syntax -- a write, as npm start writes the variables it sets
(process.env as Record<string, string>).NODE_ENV = 'production';

type CreateNextServer = (options: { dev: boolean; dir: string; hostname: string; port: number; conf: unknown }) => {
  prepare(): Promise<void>;
  getRequestHandler(): (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => Promise<void>;
  close(): Promise<void>;
};

export const next: CreateNextServer = createRequire(import.meta.url)('next');
