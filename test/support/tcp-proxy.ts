// A TCP proxy of a test's own, put between a server and its PostgreSQL to break the connections
// the way a network or a host does: connections refused (nothing listens on the port any more), or
// reset (each open connection ended with a TCP RST, and new ones reset as soon as they are made).
import net from 'node:net';

export type TcpProxy = {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** Resets every open connection, and each new one at once, until `forward()`. */
  reset(): void;
  /** Stops listening (new connections are refused) and resets every open connection, until `forward()`. */
  refuse(): Promise<void>;
  /** Takes new connections and sends nothing either way (a host that has gone silent), until `forward()`. */
  hang(): void;
  /** Forwards new connections again, listening on the same port. */
  forward(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let resetting = false;
  let hanging = false;
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    // A reset or refused side is the point; its error is not the test's.
    socket.on('error', () => undefined);
  };
  const resetAll = () => {
    for (const socket of open) socket.resetAndDestroy();
  };
  const onConnection = (client: net.Socket) => {
    track(client);
    if (resetting) return void client.resetAndDestroy();
    if (hanging) return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream).pipe(client);
    // Either side closing abruptly resets the other.
    client.once('close', () => upstream.destroyed || upstream.resetAndDestroy());
    upstream.once('close', () => client.destroyed || client.resetAndDestroy());
  };
  let listener = net.createServer(onConnection);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as net.AddressInfo;

  const stopListening = () => new Promise<void>((resolve) => (listener.listening ? listener.close(() => resolve()) : resolve()));
  return {
    port,
    urlFor(url) {
      const proxied = new URL(url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(port);
      return proxied.toString();
    },
    reset() {
      resetting = true;
      resetAll();
    },
    async refuse() {
      const closed = stopListening();
      resetAll();
      await closed;
    },
    hang() {
      hanging = true;
    },
    async forward() {
      resetting = false;
      hanging = false;
      if (listener.listening) return;
      listener = net.createServer(onConnection);
      await new Promise<void>((resolve, reject) => listener.once('error', reject).listen(port, '127.0.0.1', resolve));
    },
    async close() {
      const closed = stopListening();
      resetAll();
      await closed;
    },
  };
}
