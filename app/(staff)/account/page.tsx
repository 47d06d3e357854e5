import type { Metadata } from 'next';
import { AccountSettings } from '@/components/account-settings';
import { PASSWORD_MIN_LENGTH } from '@/lib/auth/passwords/policy';
import { ROLE_LABELS } from '@/lib/auth/scopes';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { changePasswordAction, signOutEverywhereAction } from './actions';
import { SecondFactorCard } from '@/components/second-factor/second-factor-card';
import { secondFactorStatus } from '@/lib/auth/second-factor/factors';
import { isRequiredOf, secondFactorRequirement } from '@/lib/auth/second-factor/policy';
import { confirmEnrolmentAction, removeSecondFactorAction, startEnrolmentAction } from './second-factor-actions';

export const metadata: Metadata = { title: 'Your account · Plant Store' };

export default async function AccountPage() {
  const staff = await requireStaff('/account');
  const [factor, requirement] = await Promise.all([secondFactorStatus(staff.id), secondFactorRequirement()]);
  return (
    <>
      <AccountSettings
        email={staff.email}
        role={ROLE_LABELS[staff.role]}
        minLength={PASSWORD_MIN_LENGTH}
        actions={{ changePasswordAction, signOutEverywhereAction }}
      />
      <SecondFactorCard
        view={{ ...factor, enrolledAt: factor.enrolledAt?.toISOString() ?? null, required: isRequiredOf(requirement, staff.role) }}
        actions={{ startEnrolmentAction, confirmEnrolmentAction, removeSecondFactorAction }}
      />
    </>
  );
}
