// Preloaded (node --import) into test servers: lets the test move the server's clock
// (lib/shared/clock.ts) forward, through a control port on loopback that only this module opens.
// The server prints the port on its first line; test/support/clock.ts reads it and talks to it.
// A production server never loads this file.
import http from 'node:http';

const REGISTRY = Symbol.for('plant-store.process-wide');
const registry = (globalThis[REGISTRY] ??= new Map());
if (!registry.has('clock')) registry.set('clock', { offsetMs: 0 });
const clock = registry.get('clock');

const control = http.createServer((request, response) => {
  const advance = Number(new URL(request.url ?? '/', 'http://control').searchParams.get('advance') ?? '0');
  if (!(advance >= 0)) {
    response.writeHead(400).end('the clock only moves forward');
    return;
  }
  clock.offsetMs += advance;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ now: Date.now() + clock.offsetMs, offsetMs: clock.offsetMs }));
});
control.listen(0, '127.0.0.1', () => {
  process.stdout.write(`[test clock] control port ${control.address().port}\n`);
});
control.unref();
