// Whom the store asks to have a second factor: nobody ('off', the default), admins, or everyone.
// An admin sets it on /staff; it lives in the database (the store setting `second-factor-required`,
// lib/auth/store-settings.ts), so every instance applies the same rule within a second. An account
// the rule covers that has no factor is sent to enrol right after its password, before any other
// page (lib/auth/sessions/current-staff.ts), and its server actions and page tokens are refused
// until it has one.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import type { Role } from '../scopes';
import { readStoreSetting, writeStoreSetting, type StoreSetting } from '../store-settings';
import { REQUIREMENTS, type SecondFactorRequirement } from './requirement';

// A value this version does not know asks the most of everyone.
const SECOND_FACTOR_REQUIRED: StoreSetting<SecondFactorRequirement> = { key: 'second-factor-required', values: REQUIREMENTS, default: 'off', unknown: 'everyone' };

/** The rule in force. */
export function secondFactorRequirement(): Promise<SecondFactorRequirement> {
  return readStoreSetting(SECOND_FACTOR_REQUIRED);
}

/** Whether the rule asks an account of `role` to have a second factor. */
export function isRequiredOf(requirement: SecondFactorRequirement, role: Role): boolean {
  return requirement === 'everyone' || (requirement === 'admins' && role === 'admin');
}

/** Sets the rule (audited, with the rule before and after); false when it already was so. */
export function setSecondFactorRequirement(required: SecondFactorRequirement, by: ChangeContext): Promise<boolean> {
  return writeStoreSetting(SECOND_FACTOR_REQUIRED, required, by);
}
