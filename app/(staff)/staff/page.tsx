import type { Metadata } from 'next';
import { StaffManager } from '@/components/staff/staff-manager';
import { requireAdmin } from '@/lib/auth/sessions/current-staff';
import { listAccounts } from '@/lib/auth/accounts/directory';
import { mailConfigured } from '@/lib/mail/config';
import { addStaffMemberAction, disableAccountAction, enableAccountAction, resetPasswordAction, setPasswordSignInAction, setRoleAction } from './actions';
import { resetSecondFactorAction, setSecondFactorRequirementAction } from './actions';
import { SecondFactorRequirementCard } from '@/components/staff/second-factor-requirement';
import { enrolledAmong } from '@/lib/auth/second-factor/factors';
import { secondFactorRequirement } from '@/lib/auth/second-factor/policy';
import { SignInPolicy } from '@/components/staff/sign-in-policy';
import { oidcProviderName } from '@/lib/auth/oidc/config';
import { passwordSignInAdminsOnly } from '@/lib/auth/oidc/password-sign-in';

export const metadata: Metadata = { title: 'Staff · Plant Store' };

export default async function StaffPage() {
  const admin = await requireAdmin('/staff');
  const listed = await listAccounts();
  const [enrolled, requirement] = await Promise.all([enrolledAmong(listed.map((account) => account.id)), secondFactorRequirement()]);
  const accounts = listed.map((account) => ({
    id: account.id,
    email: account.email,
    role: account.role,
    disabled: account.disabled,
    hasPassword: account.hasPassword,
    lastSignInAt: account.lastSignInAt?.toISOString() ?? null,
    secondFactor: enrolled.has(account.id),
  }));
  return (
    <>
      <StaffManager
        accounts={accounts}
        me={admin.id}
        mailOn={mailConfigured()}
        actions={{ addStaffMemberAction, disableAccountAction, enableAccountAction, setRoleAction, resetPasswordAction, resetSecondFactorAction }}
      />
      <SecondFactorRequirementCard required={requirement} setSecondFactorRequirementAction={setSecondFactorRequirementAction} />
      <SignInPolicy providerName={oidcProviderName()} adminsOnly={await passwordSignInAdminsOnly()} setAdminsOnly={setPasswordSignInAction} />
    </>
  );
}
