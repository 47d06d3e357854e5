import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Leaf } from '@/components/brand';
import { LoginForm } from '@/components/login-form';
import { safeReturnPath } from '@/lib/auth/return-path';
import { currentStaff } from '@/lib/auth/staff';
import { countUsers } from '@/lib/auth/users';

export const metadata: Metadata = { title: 'Sign in · Plant Store' };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[]>> }) {
  const callbackUrl = safeReturnPath((await searchParams).callbackUrl);
  if (await currentStaff()) redirect(callbackUrl);
  const firstRun = (await countUsers()) === 0;

  return (
    <main id="main" className="login">
      <p className="brand brand-large">
        <Leaf /> Plant Store
      </p>
      {firstRun && (
        <section className="card narrow first-run" aria-labelledby="first-run-heading">
          <h2 id="first-run-heading">No staff account yet</h2>
          <p>Create the first one on the server, then sign in with it:</p>
          <pre>
            <code>npm run user -- create --email you@example.com --password &apos;a long passphrase&apos;</code>
          </pre>
        </section>
      )}
      <LoginForm callbackUrl={callbackUrl} />
    </main>
  );
}
