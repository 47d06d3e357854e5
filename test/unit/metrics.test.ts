// The metrics registry in-process: what recordBackup (called by the backup code) and the one place
// that answers failures (lib/http/error-response.ts) leave in the exposition, and how a path becomes
// a route template (server/request-metrics.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/errors';
import { errorResponse } from '../../lib/http/error-response';
import { exposition, recordBackup } from '../../lib/metrics/registry';
import { routeTemplates, routeTemplatesOrNone, templateOf } from '../../server/request-metrics';

/** The value of the sample written exactly `series` (name and labels as exposed). */
async function sample(series: string): Promise<number> {
  const line = (await exposition()).split('\n').find((candidate) => candidate.startsWith(`${series} `));
  expect(line, series).toBeDefined();
  return Number(line!.slice(series.length + 1));
}

describe('recordBackup', () => {
  it('counts each backup by outcome; a success sets the last-backup time, a failure leaves it', async () => {
    const successes = await sample('plant_store_backups_total{outcome="success"}');
    const failures = await sample('plant_store_backups_total{outcome="failure"}');
    const at = new Date('2026-03-04T05:06:07.500Z');
    recordBackup('success', at);
    expect(await sample('plant_store_backups_total{outcome="success"}')).toBe(successes + 1);
    expect(await sample('plant_store_last_backup_timestamp_seconds')).toBe(at.getTime() / 1000);

    recordBackup('failure', new Date(at.getTime() + 60_000));
    expect(await sample('plant_store_backups_total{outcome="failure"}')).toBe(failures + 1);
    expect(await sample('plant_store_backups_total{outcome="success"}')).toBe(successes + 1);
    expect(await sample('plant_store_last_backup_timestamp_seconds')).toBe(at.getTime() / 1000);
  });
});

describe('the refusals counted where failures are answered', () => {
  it('counts a database that does not answer, a busy one, a rate limit and a refused credential, and nothing else', async () => {
    const read = async () => ({
      busy: await sample('plant_store_db_busy_total'),
      limited: await sample('plant_store_rate_limited_total'),
      expired: await sample('plant_store_auth_failures_total{kind="expired_token"}'),
      scope: await sample('plant_store_auth_failures_total{kind="insufficient_scope"}'),
    });
    const before = await read();
    expect(errorResponse(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })).status).toBe(503);
    expect(errorResponse(new ApiError('unavailable', 'The database is busy: retry in a moment')).status).toBe(503);
    expect(errorResponse(new ApiError('rate_limited', 'Too many requests')).status).toBe(429);
    expect(errorResponse(new ApiError('expired_token', 'The API token has expired')).status).toBe(401);
    expect(errorResponse(new ApiError('insufficient_scope', 'This token lacks the scope')).status).toBe(403);
    expect(errorResponse(new ApiError('not_found', 'No plant has that id')).status).toBe(404);
    expect(errorResponse(new Error('a fault')).status).toBe(500);
    expect(await read()).toEqual({ busy: before.busy + 2, limited: before.limited + 1, expired: before.expired + 1, scope: before.scope + 1 });
  });
});

describe('route templates', () => {
  it("name Next's dynamic segments as templates", () => {
    expect(templateOf('/plants/[id]')).toBe('/plants/{id}');
    expect(templateOf('/api/auth/[...nextauth]')).toBe('/api/auth/{nextauth}');
    expect(templateOf('/catalogue')).toBe('/catalogue');
  });

  it("label a path by the build's routes, static before dynamic as Next matches, and leave an unknown one unlabelled", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routes-'));
    try {
      writeFileSync(
        path.join(dir, 'routes-manifest.json'),
        JSON.stringify({
          version: 3,
          staticRoutes: [{ page: '/' }, { page: '/_not-found' }, { page: '/plants' }, { page: '/plants/batch' }],
          dynamicRoutes: [
            { page: '/api/auth/[...nextauth]', regex: '^/api/auth/(.+?)(?:/)?$' },
            { page: '/plants/[id]', regex: '^/plants/([^/]+?)(?:/)?$' },
          ],
        }),
      );
      const routeOf = routeTemplates(dir);
      expect(routeOf('/')).toBe('/');
      expect(routeOf('/plants')).toBe('/plants');
      expect(routeOf('/plants/')).toBe('/plants');
      expect(routeOf('/plants/batch')).toBe('/plants/batch');
      expect(routeOf('/plants/123')).toBe('/plants/{id}');
      expect(routeOf('/api/auth/callback/credentials')).toBe('/api/auth/{nextauth}');
      expect(routeOf('/_not-found')).toBeNull();
      expect(routeOf('/plants/1/2')).toBeNull();
      expect(routeOf('/wp-admin.php')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are left off, not the server stopped, when the manifest is of a format they cannot read', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'routes-'));
    try {
      writeFileSync(path.join(dir, 'routes-manifest.json'), JSON.stringify({ version: 99, routes: {} }));
      expect(() => routeTemplates(dir)).toThrow(/staticRoutes/);
      expect(routeTemplatesOrNone(dir)('/plants')).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
