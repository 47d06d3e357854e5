// Staff members' second factors: enrolling one (a new secret, confirmed with a first code, then
// ten recovery codes), checking a code or a recovery code at sign-in, and removing one (its owner,
// with a code) or resetting it (an admin, the operator's CLI). The TOTP secret is sealed at rest
// (lib/auth/sealed-secrets.ts); recovery codes are kept as hashes. Accepting a code is one
// statement that records its step only if it is later than the last accepted, and accepting a
// recovery code one that marks it used only if it was not: "may this code be used" is decided and
// recorded at once, so the same code sent twice at the same moment passes once. Every change is
// audited in its own transaction.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import type { AuditAction } from '../../audit/actions';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db, type Transaction } from '../../db/client';
import { log } from '../../log';
import { now as clockNow } from '../../shared/clock';
import { AccountError } from '../accounts/changes';
import { forgetAccountState } from '../accounts/state';
import { sealer } from '../sealed-secrets';
import { newRecoveryCodes, normalizedRecoveryCode, recoveryCodeHash } from './recovery-codes';
import { checkCode, newTotpSecret, normalizedCode, otpauthUri, TOTP_DIGITS, type CodeCheck } from './totp';

/** A stored TOTP secret that opens with none of the keys: sealed under another AUTH_SECRET, or altered. */
export class UnreadableFactorError extends Error {
  constructor() {
    super('the second factor cannot be decrypted with this AUTH_SECRET: set AUTH_SECRET_PREVIOUS to the one it was encrypted under, or reset the factor');
  }
}

const secrets = sealer('plant-store second factors v1', { unreadable: () => new UnreadableFactorError() });

/** Seals a TOTP secret for the database (tests read and write them through this too). */
export const sealFactorSecret = (secret: string, key?: Buffer) => secrets.seal(secret, key);
/** Opens a stored TOTP secret with `keys` (tests). */
export const openFactorSecretWith = (stored: string, keys: Buffer[]) => secrets.openWith(stored, keys);
/** The key that seals TOTP secrets for `authSecret` (tests). */
export const factorSecretKey = (authSecret: string) => secrets.keyFor(authSecret);

export type SecondFactorStatus = { enrolled: boolean; enrolledAt: Date | null; recoveryCodesLeft: number };

const record = (tx: Transaction, action: AuditAction, userId: string, by: ChangeContext, after?: object) =>
  insertAuditRows(tx, [auditRow({ action, target: { type: 'staff', id: userId }, ...(after ? { after } : {}) }, by)]);

/** Whether the account has a confirmed second factor, since when, and how many recovery codes it has left. */
export async function secondFactorStatus(userId: string): Promise<SecondFactorStatus> {
  const row = await db().secondFactor.findUnique({
    where: { userId },
    select: { confirmedAt: true, _count: { select: { recoveryCodes: { where: { usedAt: null } } } } },
  });
  if (!row?.confirmedAt) return { enrolled: false, enrolledAt: null, recoveryCodesLeft: 0 };
  return { enrolled: true, enrolledAt: row.confirmedAt, recoveryCodesLeft: row._count.recoveryCodes };
}

/** The accounts, of `userIds`, that have a confirmed second factor. */
export async function enrolledAmong(userIds: string[]): Promise<Set<string>> {
  const rows = await db().secondFactor.findMany({ where: { userId: { in: userIds }, confirmedAt: { not: null } }, select: { userId: true } });
  return new Set(rows.map((row) => row.userId));
}

export type Enrolment = { secret: string; uri: string };

/**
 * Starts enrolling the account: a new secret, kept (sealed) until a first code confirms it, and
 * what the authenticator app is to be given. An enrolment not yet confirmed is replaced; a
 * confirmed factor is not (remove it first).
 */
export async function startEnrolment(userId: string, email: string): Promise<Enrolment> {
  const secret = newTotpSecret();
  const sealed = secrets.seal(secret);
  const started = await db().$transaction(async (tx) => {
    const { count } = await tx.secondFactor.updateMany({ where: { userId, confirmedAt: null }, data: { secret: sealed, createdAt: new Date() } });
    if (count === 1) return true;
    if (await tx.secondFactor.findUnique({ where: { userId }, select: { userId: true } })) return false;
    await tx.secondFactor.create({ data: { userId, secret: sealed } });
    return true;
  });
  if (!started) throw new AccountError('Your account already has a second factor: remove it first to set up another.');
  return { secret, uri: otpauthUri(secret, email) };
}

/**
 * Confirms the enrolment with a first code from the app: the factor counts from now on, and the
 * answer is its ten recovery codes, shown once (only their hashes are kept).
 */
export async function confirmEnrolment(userId: string, input: string, by: ChangeContext, now = clockNow()): Promise<string[]> {
  const row = await db().secondFactor.findUnique({ where: { userId }, select: { secret: true, confirmedAt: true } });
  if (!row || row.confirmedAt) throw new AccountError('Start again: this set-up has ended.');
  const check = checkCode({ secret: secrets.open(row.secret), input, lastUsedStep: null, now });
  if (!check.ok) throw new AccountError(refusalOf(check));
  const codes = newRecoveryCodes();
  const confirmed = await db().$transaction(async (tx) => {
    const { count } = await tx.secondFactor.updateMany({
      where: { userId, secret: row.secret, confirmedAt: null },
      data: { confirmedAt: new Date(now), lastUsedStep: check.step },
    });
    if (count !== 1) return false;
    await tx.recoveryCode.createMany({ data: codes.map((code) => ({ userId, hash: recoveryCodeHash(normalizedRecoveryCode(code)!) })) });
    await record(tx, 'staff.second_factor_enrolled', userId, by);
    return true;
  });
  if (!confirmed) throw new AccountError('Start again: this set-up has ended.');
  forgetAccountState(userId);
  log.info('second factor enrolled', { userId });
  return codes;
}

function refusalOf(check: Extract<CodeCheck, { ok: false }>): string {
  if (check.reason === 'malformed') return `Enter the ${TOTP_DIGITS}-digit code your app shows.`;
  if (check.reason === 'replayed') return 'That code was used already. Wait for the next one.';
  return 'That code is not right. Check the time on your phone, and enter the code your app shows now.';
}

export type FactorCheck =
  | { ok: true; method: 'code' }
  | { ok: true; method: 'recovery code'; recoveryCodesLeft: number }
  | { ok: false; reason: 'no factor' | 'malformed' | 'wrong' | 'replayed' };

/**
 * Checks a code (or a recovery code) of the account's confirmed factor, and uses it up: a code's
 * step, a recovery code itself. The recovery code's use is audited with it.
 */
export async function spendSecondFactorCode(userId: string, input: string, by: ChangeContext, now = clockNow()): Promise<FactorCheck> {
  const row = await db().secondFactor.findUnique({ where: { userId }, select: { secret: true, confirmedAt: true, lastUsedStep: true } });
  if (!row?.confirmedAt) return { ok: false, reason: 'no factor' };
  if (normalizedCode(input) !== null) {
    const opened = secrets.openWith(row.secret, secrets.keys());
    const check = checkCode({ secret: opened.secret, input, lastUsedStep: row.lastUsedStep, now });
    if (!check.ok) return check;
    const { count } = await db().secondFactor.updateMany({
      where: { userId, confirmedAt: { not: null }, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: check.step } }] },
      // Sealed again under AUTH_SECRET when it opened only with AUTH_SECRET_PREVIOUS.
      data: { lastUsedStep: check.step, ...(opened.keyIndex > 0 ? { secret: secrets.seal(opened.secret) } : {}) },
    });
    return count === 1 ? { ok: true, method: 'code' } : { ok: false, reason: 'replayed' };
  }
  const recovery = normalizedRecoveryCode(input);
  if (recovery === null) return { ok: false, reason: 'malformed' };
  const left = await db().$transaction(async (tx) => {
    const { count } = await tx.recoveryCode.updateMany({ where: { userId, hash: recoveryCodeHash(recovery), usedAt: null }, data: { usedAt: new Date(now) } });
    if (count !== 1) return null;
    const remaining = await tx.recoveryCode.count({ where: { userId, usedAt: null } });
    await record(tx, 'staff.recovery_code_used', userId, by, { recoveryCodesLeft: remaining });
    return remaining;
  });
  return left === null ? { ok: false, reason: 'wrong' } : { ok: true, method: 'recovery code', recoveryCodesLeft: left };
}

/**
 * Removes the account's second factor and its recovery codes. An admin's reset (or the CLI's) also
 * ends the account's sessions: the factor may be in someone else's hands. `removed` by the owner
 * keeps their sessions (they proved a code to do it). False when there was none.
 */
export async function removeSecondFactor(userId: string, kind: 'removed' | 'reset', by: ChangeContext): Promise<boolean> {
  const removed = await db().$transaction(async (tx) => {
    const { count } = await tx.secondFactor.deleteMany({ where: { userId, confirmedAt: { not: null } } });
    if (count !== 1) return false;
    if (kind === 'reset') await tx.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
    await record(tx, kind === 'reset' ? 'staff.second_factor_reset' : 'staff.second_factor_removed', userId, by);
    return true;
  });
  if (removed) {
    forgetAccountState(userId);
    log.info('second factor removed', { userId, kind, by: 'id' in by.actor && by.actor.id ? by.actor.id : by.actor.name });
  }
  return removed;
}
