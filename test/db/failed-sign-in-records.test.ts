// Failed sign-ins in the audit trail stay bounded per address (lib/auth/sessions/sign-in-failures.ts): the
// first five of a minute in full, the rest in one summary written when the minute is over. Run
// in-process against each engine's database, with the minute given rather than waited for.
import { describe, expect, it } from 'vitest';
import type { ChangeContext } from '../../lib/audit/context';
import { FAILED_SIGN_INS_RECORDED_IN_FULL, recordFailedSignIn } from '../../lib/auth/sessions/sign-in-failures';
import { db } from '../../lib/db/client';
import { processOnOwnDatabase } from '../support/fixtures';

processOnOwnDatabase();

const MINUTE = 60_000;
// A minute of its own, far from the clock, so nothing else in the process shares its windows.
const start = Date.UTC(2031, 0, 1, 12, 0, 0);

const context = (address: string, email: string): ChangeContext => ({ actor: { type: 'staff', name: email }, clientAddress: address });
const recordsFrom = (address: string) =>
  db().auditEvent.findMany({ where: { action: 'staff.sign_in_failed', clientAddress: address }, orderBy: { seq: 'asc' } });

describe('failed sign-ins from one address', () => {
  it('are recorded in full five a minute; the rest of the minute becomes one summary when it ends', async () => {
    const address = '192.0.2.50';
    const emails = ['ann@example.com', 'bob@example.com', 'cy@example.com'];
    for (let index = 0; index < 12; index++) {
      const email = emails[index % emails.length];
      await recordFailedSignIn(email, { targetId: email }, context(address, email), start + index * 1000);
    }
    expect(await recordsFrom(address)).toHaveLength(FAILED_SIGN_INS_RECORDED_IN_FULL);

    // The next minute's first failure closes the last one's summary, and is recorded in full.
    await recordFailedSignIn('dee@example.com', { targetId: 'dee@example.com' }, context(address, 'dee@example.com'), start + MINUTE + 5);
    await expect.poll(async () => (await recordsFrom(address)).length).toBe(FAILED_SIGN_INS_RECORDED_IN_FULL + 2);
    const summary = (await recordsFrom(address)).find((record) => record.actorType === 'system')!;
    expect(summary).toMatchObject({ actorName: 'sign-in', targetType: 'staff', clientAddress: address });
    expect(JSON.parse(summary.after!)).toEqual({
      failedSignIns: 12 - FAILED_SIGN_INS_RECORDED_IN_FULL,
      from: new Date(start).toISOString(),
      to: new Date(start + MINUTE).toISOString(),
      emails: ['cy@example.com', 'ann@example.com', 'bob@example.com'],
    });
  });

  it('name at most 20 emails in a summary and count the failures with others', async () => {
    const address = '192.0.2.51';
    for (let index = 0; index < 30; index++) {
      const email = `guess-${index}@example.com`;
      await recordFailedSignIn(email, { targetId: email }, context(address, email), start + index * 100);
    }
    await recordFailedSignIn('later@example.com', { targetId: 'later@example.com' }, context(address, 'later@example.com'), start + 2 * MINUTE);
    await expect.poll(async () => (await recordsFrom(address)).length).toBe(FAILED_SIGN_INS_RECORDED_IN_FULL + 2);
    const summary = (await recordsFrom(address)).find((record) => record.actorType === 'system')!;
    const after = JSON.parse(summary.after!) as { failedSignIns: number; emails: string[]; otherEmailFailures: number };
    expect(after.failedSignIns).toBe(25);
    expect(after.emails).toHaveLength(20);
    expect(after.otherEmailFailures).toBe(5);
  });
});
