// "Password sign-in for admins only": an admin's setting, kept in the database (the store setting
// `password-sign-in`, lib/auth/store-settings.ts), so every instance reads the same within a second.
// While it is on, the Credentials provider refuses every account but an admin's once its password is
// right (lib/auth/sessions/sign-in.ts), the sign-in page shows the identity provider's button first
// and says why, and a staff member's session made with a password ends (lib/auth/sessions/rules.ts).
// It can be turned on only while a provider is configured: otherwise no one but the admins could
// sign in at all.
import 'server-only';
import type { ChangeContext } from '../../audit/context';
import { now as clockNow } from '../../shared/clock';
import { AccountError } from '../accounts/changes';
import { readStoreSetting, writeStoreSetting, type StoreSetting } from '../store-settings';
import { oidcConfig } from './config';

const PASSWORD_SIGN_IN: StoreSetting<'everyone' | 'admins'> = { key: 'password-sign-in', values: ['everyone', 'admins'], default: 'everyone', unknown: 'everyone' };

/** Whether password sign-in is for admins only now. */
export async function passwordSignInAdminsOnly(now = clockNow()): Promise<boolean> {
  return (await readStoreSetting(PASSWORD_SIGN_IN, now)) === 'admins';
}

/** Turns password sign-in for admins only on or off (audited); false when it already was so. */
export async function setPasswordSignInAdminsOnly(adminsOnly: boolean, by: ChangeContext): Promise<boolean> {
  if (adminsOnly && !oidcConfig()) throw new AccountError('Sign-in through an identity provider is not configured (OIDC_ISSUER): staff would have no way to sign in.');
  return writeStoreSetting(PASSWORD_SIGN_IN, adminsOnly ? 'admins' : 'everyone', by);
}
