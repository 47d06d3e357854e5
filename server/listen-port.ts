// The port the server listens on (PORT, read by lib/settings), known before it listens.
import net from 'node:net';

/**
 * The port `port` names, known before the server listens: Next and the direct path build every
 * request's URL on it before then. For 0, the system picks a free port on `hostname`, and a
 * placeholder holds it (closing any connection) until `release()`, just before the server listens
 * there, so nothing else takes it meanwhile.
 */
export async function holdPort(port: number, hostname: string): Promise<{ port: number; release: () => Promise<void> }> {
  if (port !== 0) return { port, release: async () => {} };
  const placeholder = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    placeholder.once('error', reject);
    placeholder.listen(0, hostname, () => resolve());
  });
  const { port: chosen } = placeholder.address() as net.AddressInfo;
  return { port: chosen, release: () => new Promise<void>((resolve) => placeholder.close(() => resolve())) };
}
