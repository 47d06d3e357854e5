// The server's one compressor (server/compression.ts), on answers written as Next writes them: with
// appendHeader, which on some versions of Node keeps what it was given as a list, so Content-Type
// is a list of one (Node 20 keeps a single value as a string; the list is set here as such a Node
// leaves it).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import compression from 'compression';
import { afterEach, describe, expect, it } from 'vitest';
import { createCompression } from '../../server/compression';

const BODY = JSON.stringify({ plants: Array.from({ length: 100 }, (_, id) => ({ id, name: `Fern ${id}` })) });
let server: http.Server | undefined;

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A server whose answers' Content-Type is a list of one, behind `middleware`; what a gzip-accepting client gets. */
async function answerThrough(middleware: (request: http.IncomingMessage, response: http.ServerResponse, next: () => void) => void) {
  server = http.createServer((request, response) =>
    middleware(request, response, () => {
      response.setHeader('content-type', ['application/json']);
      response.end(BODY);
    }),
  );
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path: '/', headers: { 'accept-encoding': 'gzip' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe("the server's compression", () => {
  it('compresses an answer whose Content-Type is a list of one', async () => {
    const { encoding, body } = await answerThrough(createCompression());
    expect(encoding).toBe('gzip');
    expect(gunzipSync(body).toString()).toBe(BODY);
  });

  it("is needed: compression's own filter leaves such an answer as it is", async () => {
    const plain = compression();
    const { encoding, body } = await answerThrough((request, response, next) => plain(request as never, response as never, () => next()));
    expect(encoding).toBeUndefined();
    expect(body.toString()).toBe(BODY);
  });
});
