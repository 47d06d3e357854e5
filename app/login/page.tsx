import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { BrandedMain } from '@/components/brand';
import { ForgotPasswordHint } from '@/components/forgot-password-hint';
import { LoginForm } from '@/components/login-form';
import { safeReturnPath } from '@/lib/auth/sessions/return-path';
import { currentStaff } from '@/lib/auth/sessions/current-staff';
import { countUsers } from '@/lib/auth/accounts/directory';
import { isDatabaseUnavailable } from '@/lib/db/unavailable';
import { operatorCommand } from '@/lib/shared/operator-commands';
import { mailConfigured } from '@/lib/mail/config';

/** Whether no staff account exists yet; false when the database does not answer, so the form still shows (and a sign-in then says it is not possible right now). */
async function isFirstRun(): Promise<boolean> {
  try {
    return (await countUsers()) === 0;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return false;
    throw error;
  }
}

export const metadata: Metadata = { title: 'Sign in · Plant Store' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const callbackUrl = safeReturnPath((await searchParams).callbackUrl);
  if (await currentStaff()) redirect(callbackUrl);
  const firstRun = await isFirstRun();

  return (
    <BrandedMain>
      {firstRun && (
        <section className="card narrow first-run" aria-labelledby="first-run-heading">
          <h2 id="first-run-heading">No staff account yet</h2>
          <p>Create the first one (an admin) on the server; it asks for the password. Then sign in with it:</p>
          <pre>
            <code>{operatorCommand('user', 'create --email you@example.com')}</code>
          </pre>
        </section>
      )}
      <LoginForm callbackUrl={callbackUrl} />
      {!firstRun && <ForgotPasswordHint mailOn={mailConfigured()} />}
    </BrandedMain>
  );
}
