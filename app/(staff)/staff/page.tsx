import type { Metadata } from 'next';
import { StaffManager } from '@/components/staff/staff-manager';
import { requireAdmin } from '@/lib/auth/sessions/current-staff';
import { listAccounts } from '@/lib/auth/accounts/directory';
import { SignInPolicy } from '@/components/staff/sign-in-policy';
import { oidcProviderName } from '@/lib/auth/oidc/config';
import { passwordSignInAdminsOnly } from '@/lib/auth/oidc/password-sign-in';
import { addStaffMemberAction, disableAccountAction, enableAccountAction, resetPasswordAction, setPasswordSignInAction, setRoleAction } from './actions';

export const metadata: Metadata = { title: 'Staff · Plant Store' };

export default async function StaffPage() {
  const admin = await requireAdmin('/staff');
  const accounts = (await listAccounts()).map((account) => ({
    id: account.id,
    email: account.email,
    role: account.role,
    disabled: account.disabled,
    hasPassword: account.hasPassword,
    lastSignInAt: account.lastSignInAt?.toISOString() ?? null,
  }));
  return (
    <>
      <StaffManager
        accounts={accounts}
        me={admin.id}
        actions={{ addStaffMemberAction, disableAccountAction, enableAccountAction, setRoleAction, resetPasswordAction }}
      />
      <SignInPolicy providerName={oidcProviderName()} adminsOnly={await passwordSignInAdminsOnly()} setAdminsOnly={setPasswordSignInAction} />
    </>
  );
}
