// Preloaded (node --import) into test servers: lets the test move the server's clock
// (lib/shared/clock.ts) forward, or hold it still and let it run on, through a control port on
// loopback that only this module opens. The server prints the port on its first line;
// test/support/clock.ts reads it and talks to it. A production server never loads this file.
import http from 'node:http';

const REGISTRY = Symbol.for('plant-store.process-wide');
const registry = (globalThis[REGISTRY] ??= new Map());
if (!registry.has('clock')) registry.set('clock', { offsetMs: 0 });
const clock = registry.get('clock');
const now = () => clock.stoppedAt ?? Date.now() + clock.offsetMs;

const control = http.createServer((request, response) => {
  const query = new URL(request.url ?? '/', 'http://control').searchParams;
  const advance = Number(query.get('advance') ?? '0');
  if (!(advance >= 0)) {
    response.writeHead(400).end('the clock only moves forward');
    return;
  }
  // Stopped, the clock shows one time until it runs again, from where it stood.
  if (query.get('run') === 'stop') clock.stoppedAt = now();
  if (query.get('run') === 'on' && clock.stoppedAt !== undefined) {
    clock.offsetMs = clock.stoppedAt - Date.now();
    delete clock.stoppedAt;
  }
  if (clock.stoppedAt !== undefined) clock.stoppedAt += advance;
  clock.offsetMs += advance;
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ now: now(), offsetMs: clock.offsetMs }));
});
control.listen(0, '127.0.0.1', () => {
  process.stdout.write(`[test clock] control port ${control.address().port}\n`);
});
control.unref();
