import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { BrandedMain } from '@/components/brand';
import { Enrolment } from '@/components/second-factor/enrolment';
import { SignOutButton } from '@/components/sign-out-button';
import { enrollingStaff } from '@/lib/auth/sessions/current-staff';
import { safeReturnPath } from '@/lib/auth/sessions/return-path';
import { confirmEnrolmentAction, removeSecondFactorAction, startEnrolmentAction } from '../(staff)/account/second-factor-actions';

export const metadata: Metadata = { title: 'Set up a second factor · Plant Store' };

// Where an account the store asks for a second factor, and that has none, is sent right after its
// password (lib/auth/sessions/current-staff.ts): until it has one, no other page or action serves it.
export default async function EnrolPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const callbackUrl = safeReturnPath((await searchParams).callbackUrl);
  const session = await enrollingStaff();
  if (!session) redirect(`/login?callbackUrl=${encodeURIComponent('/enrol')}`);
  if (!session.mustEnrol) redirect(callbackUrl);
  return (
    <BrandedMain>
      <section className="card narrow" aria-labelledby="enrol-heading">
        <h1 id="enrol-heading">Set up a second factor</h1>
        <p>
          This store asks {session.staff.role === 'admin' ? 'admins' : 'everyone'} to sign in with a code from an authenticator
          app as well as a password. Set it up now to go on; it takes a minute.
        </p>
        <p className="muted">
          Signed in as <strong>{session.staff.email}</strong>. <SignOutButton />
        </p>
        <Enrolment
          actions={{ startEnrolmentAction, confirmEnrolmentAction, removeSecondFactorAction }}
          next={{ href: callbackUrl, label: 'Continue' }}
        />
      </section>
    </BrandedMain>
  );
}
