// Whom the store asks to have a second factor: nobody ('off', the default), admins, or everyone.
// An admin sets it on /staff; it lives in the database (one row of SecondFactorPolicy), so every
// instance applies the same rule, read through a short cache as account state is. An account the
// rule covers that has no factor is sent to enrol right after its password, before any other page
// (lib/auth/sessions/current-staff.ts), and its server actions and page tokens are refused until it has one.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import { auditRow, insertAuditRows } from '../../audit/records';
import { db } from '../../db/client';
import { log } from '../../log';
import { shortCache } from '../../short-cache';
import { ACCOUNT_STATE_TTL_MS } from '../accounts/state';
import type { Role } from '../scopes';
import { REQUIREMENTS, type SecondFactorRequirement } from './requirement';

const POLICY_ROW = 1;
const cache = shortCache<SecondFactorRequirement>('second-factor-policy', { ttlMs: ACCOUNT_STATE_TTL_MS, maxEntries: 1 });

const isRequirement = (value: string): value is SecondFactorRequirement => (REQUIREMENTS as readonly string[]).includes(value);

/** The rule in force. */
export function secondFactorRequirement(): Promise<SecondFactorRequirement> {
  return cache.get('policy', async () => {
    const row = await db().secondFactorPolicy.findUnique({ where: { id: POLICY_ROW }, select: { required: true } });
    // A value this version does not know asks the most of everyone.
    return row === null ? 'off' : isRequirement(row.required) ? row.required : 'everyone';
  });
}

/** Whether the rule asks an account of `role` to have a second factor. */
export function isRequiredOf(requirement: SecondFactorRequirement, role: Role): boolean {
  return requirement === 'everyone' || (requirement === 'admins' && role === 'admin');
}

/** Sets the rule (audited, with the rule before and after); false when it already was so. */
export async function setSecondFactorRequirement(required: SecondFactorRequirement, by: ChangeContext): Promise<boolean> {
  const changed = await db().$transaction(async (tx) => {
    const before = (await tx.secondFactorPolicy.findUnique({ where: { id: POLICY_ROW }, select: { required: true } }))?.required ?? 'off';
    if (before === required) return false;
    await tx.secondFactorPolicy.upsert({ where: { id: POLICY_ROW }, create: { id: POLICY_ROW, required }, update: { required } });
    await insertAuditRows(tx, [
      auditRow({ action: 'setting.second_factor_required', target: { type: 'setting', id: 'second-factor-required' }, before: { required: before }, after: { required } }, by),
    ]);
    return true;
  });
  cache.forget('policy');
  if (changed) log.info('second factor requirement changed', { required, by: 'id' in by.actor && by.actor.id ? by.actor.id : by.actor.name });
  return changed;
}
