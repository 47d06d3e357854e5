// Failed sign-ins in the audit trail, bounded. Each is worth a record, so an admin sees who tried
// what; but a stranger can fail as often as the limits allow, and one record each would let them
// grow the table without bound. So from one address (its bucket: lib/shared/address-windows.ts), the
// first few failures of a minute are recorded in full, at once, and the rest of that minute's are
// counted and written as one summary record when the minute is over: how many, and which emails.
// The counts live in this process's memory: a summary still pending when the process stops is lost
// (its failures are in the log all the same).
import 'server-only';
import { recordAudit } from '../../audit/records';
import type { ChangeContext } from '../../audit/context';
import { addressBucket } from '../../shared/address-windows';
import { WINDOW_MS } from '../../shared/window';
import { UNKNOWN_ADDRESS } from '../../shared/client-address';
import { now as clockNow } from '../../shared/clock';
import { log } from '../../log';
import { processWide } from '../../process-wide';

/** Failures from one address a minute that are recorded each in full. */
export const FAILED_SIGN_INS_RECORDED_IN_FULL = 5;
// A summary names at most this many emails, and counts the rest.
const EMAILS_NAMED = 20;
// Addresses with a summary pending; past this, new ones share one summary.
const MAX_PENDING = 10_000;
const MANY_ADDRESSES = 'many addresses';

type Minute = { start: number; failures: number; emails: Set<string>; otherEmailFailures: number; context: ChangeContext };

const minutes = processWide('sign-in-failure-minutes', () => new Map<string, Minute>());

/**
 * Records a failed sign-in for `email` (the account's id in `target`, when one has that email):
 * in full, or counted towards its address's summary for this minute.
 */
export async function recordFailedSignIn(
  email: string,
  entry: { targetId: string; after?: object },
  context: ChangeContext,
  now = clockNow(),
): Promise<void> {
  const start = now - (now % WINDOW_MS);
  let bucket = addressBucket(context.clientAddress ?? UNKNOWN_ADDRESS);
  let minute = minutes.get(bucket);
  if (!minute && minutes.size >= MAX_PENDING) bucket = MANY_ADDRESSES;
  minute = minutes.get(bucket);
  if (!minute || minute.start !== start) {
    if (minute) flush(bucket, minute);
    minute = { start, failures: 0, emails: new Set(), otherEmailFailures: 0, context: { actor: { type: 'system', name: 'sign-in' }, clientAddress: context.clientAddress } };
    minutes.set(bucket, minute);
    const pending = minute;
    setTimeout(() => flush(bucket, pending), start + WINDOW_MS - now).unref();
  }
  minute.failures++;
  if (minute.failures <= FAILED_SIGN_INS_RECORDED_IN_FULL) {
    await recordAudit({ action: 'staff.sign_in_failed', target: { type: 'staff', id: entry.targetId }, after: entry.after }, context);
    return;
  }
  if (minute.emails.size < EMAILS_NAMED || minute.emails.has(email)) minute.emails.add(email);
  else minute.otherEmailFailures++;
}

/** Writes the summary of `minute`'s failures beyond those recorded in full, if there were any. */
function flush(bucket: string, minute: Minute): void {
  if (minutes.get(bucket) === minute) minutes.delete(bucket);
  const repeated = minute.failures - FAILED_SIGN_INS_RECORDED_IN_FULL;
  if (repeated <= 0) return;
  minute.failures = FAILED_SIGN_INS_RECORDED_IN_FULL;
  const emails = [...minute.emails];
  const after = {
    failedSignIns: repeated,
    from: new Date(minute.start).toISOString(),
    to: new Date(minute.start + WINDOW_MS).toISOString(),
    emails,
    ...(minute.otherEmailFailures > 0 ? { otherEmailFailures: minute.otherEmailFailures } : {}),
    ...(bucket === MANY_ADDRESSES ? { addresses: MANY_ADDRESSES } : {}),
  };
  recordAudit({ action: 'staff.sign_in_failed', target: { type: 'staff', id: emails[0] ?? '(unknown)' }, after }, minute.context).catch((error: unknown) =>
    log.error('could not record a summary of failed sign-ins', { error: error instanceof Error ? error.message : String(error) }),
  );
}
