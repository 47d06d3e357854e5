// The servers the tests start (test/support/server.ts) are the ones that answer them: a port that
// another process took between freePort() and the server's listen is not mistaken for the server's
// own, however that process answers (another suite's server would answer /api/health with 200).
import net from 'node:net';
import { expect } from 'vitest';
import { test } from '../support/fixtures';
import { freePort, startServer } from '../support/server';

test("a server whose port another process holds fails to start, though that process answers in its place", async ({ ownDatabase, onTestFinished }) => {
  const port = await freePort();
  const squatter = net.createServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'));
  await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

  // Given a port, it is not chosen again: the server says why it could not listen, and exits.
  const started = startServer({ databaseUrl: ownDatabase.url, port });
  await expect(started).rejects.toThrow(/"msg":"could not listen".*"code":"EADDRINUSE"/);
});
