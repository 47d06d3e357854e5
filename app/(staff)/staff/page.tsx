import type { Metadata } from 'next';
import { StaffManager } from '@/components/staff/staff-manager';
import { requireAdmin } from '@/lib/auth/sessions/current-staff';
import { listAccounts } from '@/lib/auth/accounts/directory';
import { mailConfigured } from '@/lib/mail/config';
import { addStaffMemberAction, disableAccountAction, enableAccountAction, resetPasswordAction, setRoleAction } from './actions';

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
    <StaffManager
      accounts={accounts}
      me={admin.id}
      mailOn={mailConfigured()}
      actions={{ addStaffMemberAction, disableAccountAction, enableAccountAction, setRoleAction, resetPasswordAction }}
    />
  );
}
