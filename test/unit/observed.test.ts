// The check that every answer the tests observe is declared in /openapi.json
// (test/support/global-setup.ts) must notice an undeclared one, and only that.
import { describe, expect, it } from 'vitest';
import { requestLinesOf, undeclared } from '../support/observed';

const document = {
  paths: {
    '/plants': { get: { responses: { 200: {}, 401: {} } }, post: { responses: { 200: {}, 405: {} } } },
    '/plants/{id}': { get: { responses: { 200: {}, 404: {} } } },
    '/plants/next-id': { get: { responses: { 200: {} } } },
  },
};
const seen = (method: string, target: string, status: number) => ({ method, target, status });

describe('undeclared answers', () => {
  it('are those whose operation lacks the status', () => {
    expect(
      undeclared(document, [
        seen('GET', '/plants?limit=1', 200),
        seen('GET', '/plants', 500),
        seen('POST', '/plants', 401),
        seen('GET', '/plants/42', 404),
        seen('GET', '/plants/42', 412),
        seen('GET', '/plants/next-id', 404),
      ]),
    ).toEqual([
      'GET /plants 500 (GET /plants)',
      'GET /plants/next-id 404 (GET /plants/next-id)',
      'GET /plants/{id} 412 (GET /plants/42)',
      'POST /plants 401 (POST /plants)',
    ]);
  });

  it('take HEAD as GET, an absolute-form target as its path, and a method without an operation as any of its path\'s', () => {
    expect(undeclared(document, [seen('HEAD', '/plants/7', 404), seen('GET', 'http://evil.example/plants', 200), seen('PUT', '/plants', 405)])).toEqual([]);
    expect(undeclared(document, [seen('HEAD', '/plants/7', 500), seen('PUT', '/plants', 418)])).toEqual(['HEAD /plants/{id} 500 (HEAD /plants/7)', 'PUT /plants 418 (PUT /plants)']);
  });

  it('leave out what no operation answers: OPTIONS, *, paths the document lacks, interim answers', () => {
    expect(undeclared(document, [seen('OPTIONS', '/plants', 204), seen('GET', '*', 400), seen('GET', '/login', 200), seen('POST', '/plants', 100)])).toEqual([]);
    // What the router redirects before any operation: dot segments, backslashes, empty segments.
    expect(undeclared(document, [seen('GET', '/plants/%2e', 308), seen('GET', '/plants/%2E%2e', 307), seen('GET', '/plants\\1', 308), seen('GET', '///plants/1', 308), seen('GET', '/plants//1', 308)])).toEqual([]);
  });
});

describe('the request lines of raw bytes', () => {
  it('are found for each pipelined request, not in a body', () => {
    const bytes = 'POST /plants HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nabcdeGET /plants/1 HTTP/1.1\r\nHost: a\r\n\r\n';
    expect(requestLinesOf(bytes)).toEqual([{ method: 'POST', target: '/plants' }, { method: 'GET', target: '/plants/1' }]);
    const chunked = 'POST /plants HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nGET\r\n0\r\n\r\nGET / HTTP/1.1\r\n\r\n';
    expect(requestLinesOf(chunked)).toEqual([{ method: 'POST', target: '/plants' }, { method: 'GET', target: '/' }]);
    expect(requestLinesOf('GET / HTTP/1.1\r\n\r\nBREW /pot HTCPCP/1.0\r\n\r\nGET /x HTTP/1.1\r\n\r\n')).toEqual([{ method: 'GET', target: '/' }]);
  });
});
