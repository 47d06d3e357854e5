// A Request the direct path cannot build from what it was given is the client's request, not a
// fault: 400 (40004), never 500. Node's parser lets nothing through that undici's Request refuses
// (a NUL in a header value, say), so the direct router is called here as main.ts calls it, with such
// a request.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCompression } from '../../server/compression';
import { createDirectRoutes } from '../../server/direct-routes';

describe('a request the direct path cannot turn into a Request', () => {
  it('is answered 400 40004, not 500', async () => {
    const direct = createDirectRoutes({ origin: 'http://127.0.0.1:9', compress: createCompression() });
    const answered = new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve) => {
      const request = Object.assign(new IncomingMessage(new Socket()), { method: 'GET', url: '/plants/1', headers: { host: 'x', 'x-broken': 'a\u0000b' } });
      // A real response (the direct path runs it through the compression middleware, which needs
      // one), caught at its end: the request never came over a socket.
      const response = new ServerResponse(request);
      response.end = ((payload?: Buffer) => {
        resolve({ status: response.statusCode, headers: response.getHeaders(), body: payload?.toString() ?? '' });
        return response;
      }) as never;
      expect(direct.serve(request as never, response as never)).toBe(true);
    });
    const { status, headers, body } = await answered;
    expect(status).toBe(400);
    expect(JSON.parse(body)).toMatchObject({ error: 40004 });
    expect(headers.connection).toBe('close');
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
