// What is kept, and for how long (lib/retention.ts), run in-process against each engine's database:
// audit records are pruned after AUDIT_RETENTION_DAYS when it is set, and kept forever when it is not.
import { afterEach, describe, expect, it } from 'vitest';
import { pruneExpired } from '../../lib/retention';
import { testEngine } from '../support/database';
import { processOnOwnDatabase } from '../support/fixtures';
import { envAsItIs, setEnv } from '../support/settings';

const database = processOnOwnDatabase();

afterEach(envAsItIs('AUDIT_RETENTION_DAYS'));

describe('the records themselves', () => {
  it('are pruned after AUDIT_RETENTION_DAYS when it is set, and kept forever when it is not', async () => {
    const old = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    const at = testEngine() === 'sqlite' ? old.toISOString().replace('Z', '+00:00') : old.toISOString();
    for (const when of [at, at, new Date().toISOString()]) {
      await database.execute(`INSERT INTO "AuditEvent" ("at", "action", "actorType", "actorName", "targetType", "targetId") VALUES ('${when}', 'plant.created', 'system', 'cli', 'plant', '1')`);
    }
    setEnv({ AUDIT_RETENTION_DAYS: undefined });
    expect((await pruneExpired()).auditEvents).toBe(0);
    setEnv({ AUDIT_RETENTION_DAYS: '30' });
    expect((await pruneExpired()).auditEvents).toBe(2);
    expect(await database.execute('SELECT "seq" FROM "AuditEvent"')).toHaveLength(1);
  });
});
