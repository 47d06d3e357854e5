// npm run db:migrate, as an operator (or a Vercel build command) runs it.
import { spawnSync } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';
import { operatorScript } from '../support/cli';
import { createTestDatabase, testEngine } from '../support/database';

function migrate(env: Record<string, string>) {
  const result = spawnSync(process.execPath, operatorScript('db-migrate'), {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('npm run db:migrate', () => {
  it('applies every migration to a new database, and then reports it up to date', async () => {
    const database = await createTestDatabase();
    try {
      const again = migrate({ DATABASE_URL: database.url });
      expect(again.status, again.output).toBe(0);
      expect(again.output).toContain('database is up to date');
    } finally {
      await database.remove();
    }
  });

  if (testEngine() === 'postgresql') {
    it('migrates while servers are running on the database (rolling deploys)', () => {
      const result = migrate({ DATABASE_URL: inject('databaseUrl') });
      expect(result.status, result.output).toBe(0);
      expect(result.output).toContain('database is up to date');
    });
  } else {
    it('says plainly that a running server holds the SQLite file', () => {
      const result = migrate({ DATABASE_URL: inject('databaseUrl') });
      expect(result.status).toBe(1);
      expect(result.output).toContain('The SQLite database is in use by another process (a running server?)');
    });
  }

  it('refuses SQLite on Vercel, where files do not persist', () => {
    const result = migrate({ DATABASE_URL: 'file:./data/never.db', VERCEL: '1' });
    expect(result.status).toBe(1);
    expect(result.output).toContain('On Vercel, DATABASE_URL must name a PostgreSQL database');
  });
});
