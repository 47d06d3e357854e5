// The port the server listens on. Plain JavaScript, read by the production server (main.mjs) and
// checked by npm start (scripts/start.ts).
import net from 'node:net';

export const PORT_DEFAULT = 3000;

/**
 * PORT: a port number, or 0 for any free port; 3000 when unset. Throws on anything else, so npm
 * start refuses it at once.
 * @param {Record<string, string | undefined>} env
 * @returns {number}
 */
export function listenPort(env = process.env) {
  const configured = env.PORT?.trim();
  if (!configured) return PORT_DEFAULT;
  if (/^\d{1,5}$/.test(configured) && Number(configured) <= 65535) return Number(configured);
  throw new Error(`PORT must be a port number from 1 to 65535, or 0 for any free port, got "${env.PORT}"`);
}

/**
 * The port `port` names, known before the server listens: Next and the direct path build every
 * request's URL on it before then. For 0, the system picks a free port on `hostname`, and a
 * placeholder holds it (closing any connection) until `release()`, just before the server listens
 * there, so nothing else takes it meanwhile.
 * @param {number} port
 * @param {string} hostname
 * @returns {Promise<{ port: number, release: () => Promise<void> }>}
 */
export async function holdPort(port, hostname) {
  if (port !== 0) return { port, release: async () => {} };
  const placeholder = net.createServer((socket) => socket.destroy());
  await new Promise((resolve, reject) => {
    placeholder.once('error', reject);
    placeholder.listen(0, hostname, () => resolve(undefined));
  });
  const { port: chosen } = /** @type {net.AddressInfo} */ (placeholder.address());
  return { port: chosen, release: () => new Promise((resolve) => placeholder.close(() => resolve())) };
}
