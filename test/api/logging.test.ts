import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { newToken, request, sharedServer, uniqueId } from '../support/api';

const serverLog = () => readFileSync(inject('serverLogFile'), 'utf8');

describe('request logs', () => {
  it('write one structured line per request, and never a token, password or body', async () => {
    const token = await newToken('logging');
    const secretName = `Secret name ${uniqueId()}`;
    const response = await request(sharedServer(), '/plants', {
      method: 'POST',
      token,
      body: `{"id": ${uniqueId()}, "name": "${secretName}"}`,
      headers: { 'x-request-id': 'log-test-0001' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('log-test-0001');

    let line: Record<string, unknown> | undefined;
    await expect
      .poll(() => {
        const found = serverLog()
          .split('\n')
          .filter((text) => text.includes('"requestId":"log-test-0001"'));
        line = found.length === 1 ? JSON.parse(found[0]) : undefined;
        return found.length;
      })
      .toBe(1);
    expect(line).toMatchObject({ level: 'info', msg: 'request', method: 'POST', path: '/plants', status: 200 });
    expect(typeof line!.ms).toBe('number');
    expect(typeof line!.time).toBe('string');

    const log = serverLog();
    expect(log).not.toContain(token);
    expect(log).not.toContain(token.slice(4, 20));
    expect(log).not.toContain(secretName);
  });

  it('replaces a caller request id that is not a plain identifier', async () => {
    const response = await request(sharedServer(), '/plants', { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
