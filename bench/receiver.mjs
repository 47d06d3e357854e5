#!/usr/bin/env node
// @ts-check
// The webhook receiver npm run bench delivers to: on bare node:http, it reads each POST and
// answers 204 at once, so what is measured is the store's side of delivery (outbox, dispatcher,
// signing, HTTP), not a receiver's. GET /api/health answers {"received": n}. Signatures are
// checked by the tests' receiver (test/support/receiver.ts), not here.
// Plain JavaScript that node runs as it is, like the floor (bench/floor-server.mjs); tsc checks it.
import http from 'node:http';

const port = Number(process.env.PORT) || 0;
let received = 0;

const server = http.createServer((request, response) => {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ received }));
    return;
  }
  request.resume();
  request.on('end', () => {
    received++;
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, process.env.HOSTNAME || '127.0.0.1');
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
