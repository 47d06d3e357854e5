// Before the server listens, it asks itself for the pages and routes anyone may burst (the sign-in
// and set-password pages, next-auth's CSRF route), on a loopback port of its own that closes
// afterwards. Next's preload only loads their modules; rendering them the first time also
// instantiates the modules their components import, a third of a second of synchronous work on a
// quiet machine that a first burst of strangers' requests (and /api/health) would otherwise wait
// behind. The warm-up's requests are not counted in the request metrics.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { log } from '../lib/log';

/** What is asked for, in order: each must answer without a session or a database write. */
export const WARM_UP_PATHS = ['/login', '/set-password', '/api/auth/csrf'];

const WARM_UP_TIMEOUT_MS = 15_000;

/**
 * Sends a GET for each of WARM_UP_PATHS to `handler` over loopback, one after another. A failure is
 * logged, never thrown: a server that could not warm up still starts, only colder.
 * @returns whether every page answered
 */
export async function warmUp(handler: http.RequestListener): Promise<boolean> {
  const server = http.createServer(handler);
  let warmed = true;
  try {
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    for (const path of WARM_UP_PATHS) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { redirect: 'manual', signal: AbortSignal.timeout(WARM_UP_TIMEOUT_MS) });
      await response.arrayBuffer();
      if (response.status >= 500) {
        warmed = false;
        log.warn('warm-up request failed', { path, status: response.status });
      }
    }
  } catch (error) {
    warmed = false;
    log.warn('warm-up did not finish; the first requests load what it would have', { error: error instanceof Error ? error.message : String(error) });
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return warmed;
}
