// GET /stats: the dashboard's figures, counted on the engine of the vitest project. Other files
// share the server's database, so the checks are on what this file's plants change.
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COMMAND } from '../../lib/audit/context';
import { createApiToken } from '../../lib/auth/tokens/api-tokens';
import { expectError, request, sharedServer, uniqueId } from '../support/api';

type Stats = {
  total: number;
  addedToday: number;
  addedLast7Days: number;
  addedPerDay: { date: string; count: number }[];
  tags: { tag: string; count: number }[];
  otherTags: number;
  untagged: number;
  webhooks?: { succeeded: number; failed: number; pending: number; oldestPendingAt: string | null };
};

let reader: string;
let manager: string;
beforeAll(async () => {
  reader = (await createApiToken({ name: 'stats reader', scopes: ['plants:read', 'plants:write'] }, OPERATOR_COMMAND)).token;
  manager = (await createApiToken({ name: 'stats manager', scopes: ['plants:read', 'webhooks:manage'] }, OPERATOR_COMMAND)).token;
});

const stats = async (query = '', token = reader) => {
  const response = await request(sharedServer(), `/stats${query}`, { token });
  expect(response.status, response.text).toBe(200);
  return response.body as Stats;
};

describe('GET /stats', () => {
  it('lists every day of the range, oldest first, ending today (UTC)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const month = await stats();
    expect(month.addedPerDay).toHaveLength(30);
    expect(month.addedPerDay.at(-1)!.date).toBe(today);
    const dates = month.addedPerDay.map((day) => day.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(30);
    expect((await stats('?days=90')).addedPerDay).toHaveLength(90);
    expect((await stats('?days=30')).addedPerDay).toHaveLength(30);
  });

  it('counts the plants added, by day and by tag', async () => {
    const before = await stats();
    const tag = `stats-${randomBytes(4).toString('hex')}`;
    const items = [
      ...Array.from({ length: 30 }, (_, index) => `{"id": ${uniqueId()}, "name": "Counted ${index}", "tag": "${tag}"}`),
      ...Array.from({ length: 3 }, (_, index) => `{"id": ${uniqueId()}, "name": "Untagged ${index}"}`),
    ];
    const batch = await request(sharedServer(), '/plants/batch', { method: 'POST', token: reader, body: `[${items.join(',')}]` });
    expect(batch.status, batch.text).toBe(200);
    const after = await stats();
    expect(after.total - before.total).toBe(33);
    expect(after.addedToday - before.addedToday).toBe(33);
    expect(after.addedLast7Days - before.addedLast7Days).toBe(33);
    expect(after.addedPerDay.at(-1)!.count - before.addedPerDay.at(-1)!.count).toBe(33);
    expect(after.untagged - before.untagged).toBe(3);
    expect(after.tags).toContainEqual({ tag, count: 30 });
    expect(after.tags.length).toBeLessThanOrEqual(10);
    const counts = after.tags.map((entry) => entry.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    // Everything is counted once: the named tags, the other tags and the untagged make the total.
    expect(counts.reduce((sum, count) => sum + count, 0) + after.otherTags + after.untagged).toBe(after.total);
  });

  it('adds webhook health only for a caller with webhooks:manage', async () => {
    expect((await stats()).webhooks).toBeUndefined();
    const health = (await stats('', manager)).webhooks!;
    expect(health).toEqual({ succeeded: expect.any(Number), failed: expect.any(Number), pending: expect.any(Number), oldestPendingAt: health.pending ? expect.any(String) : null });
  });

  it('refuses a range it does not offer, and a token without plants:read', async () => {
    expectError(await request(sharedServer(), '/stats?days=7', { token: reader }), 400, 40003, 'days: must be one of 30, 90');
    const writer = (await createApiToken({ name: 'stats writer', scopes: ['plants:write'] }, OPERATOR_COMMAND)).token;
    expect((await request(sharedServer(), '/stats', { token: writer })).status).toBe(403);
    expect((await request(sharedServer(), '/stats')).status).toBe(401);
  });
});
