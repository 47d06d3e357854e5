// A pooled connection that PostgreSQL ends while it sits idle (a restart, an administrator's
// pg_terminate_backend) must not take the process down: the pool drops it with a warning in the log,
// and the next statement is answered on a new connection.
import { expect, vi } from 'vitest';
import { postgresqlPool } from '../../lib/db/postgresql/prisma-client';
import { engine } from '../../lib/db/engine';
import { processOnOwnDatabase, test } from '../support/fixtures';

const database = processOnOwnDatabase();

test('an idle connection ended by the server is dropped with a warning, and the next statement is answered', async () => {
  const stats = () => engine().plants.stats({ since: '2000-01-01', topTags: 10 });
  await stats();
  const pool = postgresqlPool();
  expect(pool.idleCount).toBeGreaterThan(0);

  const stderr = vi.spyOn(process.stderr, 'write');
  try {
    await database.execute('SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "datname" = current_database() AND "pid" <> pg_backend_pid()');
    await expect.poll(() => pool.idleCount, { timeout: 5_000 }).toBe(0);
    const warnings = stderr.mock.calls.map(([text]) => String(text)).filter((text) => text.includes('database connection lost while idle'));
    expect(warnings.length).toBeGreaterThan(0);
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 'warn', error: 'terminating connection due to administrator command' });
  } finally {
    stderr.mockRestore();
  }
  expect((await stats()).tags).toEqual([]);
});
