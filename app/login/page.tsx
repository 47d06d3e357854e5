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
import { OidcSignIn } from '@/components/oidc-sign-in';
import { oidcProviderName } from '@/lib/auth/oidc/config';
import { passwordSignInAdminsOnly } from '@/lib/auth/oidc/password-sign-in';
import { isOidcRefusal, oidcRefusalText } from '@/lib/auth/oidc/refusals';

/** Whether no staff account exists yet; false when the database does not answer, so the form still shows (and a sign-in then says it is not possible right now). */
async function isFirstRun(): Promise<boolean> {
  try {
    return (await countUsers()) === 0;
  } catch (error) {
    if (isDatabaseUnavailable(error)) return false;
    throw error;
  }
}

/** Whether password sign-in is for admins only; false when the database does not answer, as isFirstRun. */
async function passwordsForAdminsOnly(): Promise<boolean> {
  try {
    return await passwordSignInAdminsOnly();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return false;
    throw error;
  }
}

export const metadata: Metadata = { title: 'Sign in · Plant Store' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const query = await searchParams;
  const callbackUrl = safeReturnPath(query.callbackUrl);
  if (await currentStaff()) redirect(callbackUrl);
  const firstRun = await isFirstRun();
  const providerName = oidcProviderName();
  const adminsOnly = providerName !== null && (await passwordsForAdminsOnly());
  const error = typeof query.error === 'string' ? query.error : null;
  const provider = providerName && (
    <OidcSignIn
      providerName={providerName}
      callbackUrl={callbackUrl}
      refusal={isOidcRefusal(error) ? oidcRefusalText(error, providerName) : null}
      passwordsForAdminsOnly={adminsOnly}
    />
  );

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
      {adminsOnly && provider}
      <LoginForm callbackUrl={callbackUrl} adminsOnly={adminsOnly} />
      {!adminsOnly && provider}
      {!firstRun && <ForgotPasswordHint mailOn={mailConfigured()} />}
    </BrandedMain>
  );
}
