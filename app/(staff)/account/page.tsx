import type { Metadata } from 'next';
import { AccountSettings } from '@/components/account-settings';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/passwords/policy';
import { ROLE_LABELS } from '@/lib/auth/scopes';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { changePasswordAction, signOutEverywhereAction } from './actions';

export const metadata: Metadata = { title: 'Your account · Plant Store' };

export default async function AccountPage() {
  const staff = await requireStaff('/account');
  return (
    <AccountSettings
      email={staff.email}
      role={ROLE_LABELS[staff.role]}
      minLength={PASSWORD_MIN_LENGTH}
      actions={{ changePasswordAction, signOutEverywhereAction }}
    />
  );
}
