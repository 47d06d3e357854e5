// The start-up warm-up (server/warm-up.ts): it asks for each public page once, in order, and a
// page that fails (or a handler that never answers well) is reported, never fatal.
import { describe, expect, it } from 'vitest';
import { WARM_UP_PATHS, warmUp } from '../../server/warm-up';

describe('warmUp', () => {
  it('asks for every public page once, in order, and reports success', async () => {
    const asked: string[] = [];
    const warmed = await warmUp((request, response) => {
      asked.push(`${request.method} ${request.url}`);
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
    });
    expect(warmed).toBe(true);
    expect(asked).toEqual(WARM_UP_PATHS.map((path) => `GET ${path}`));
  });

  it('reports a page that fails, and goes on to the next', async () => {
    const asked: string[] = [];
    const warmed = await warmUp((request, response) => {
      asked.push(request.url!);
      response.writeHead(request.url === '/login' ? 500 : 200).end();
    });
    expect(warmed).toBe(false);
    expect(asked).toEqual(WARM_UP_PATHS);
  });
});
