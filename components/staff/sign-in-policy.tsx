'use client';
import { ConfirmAction } from '../confirm-action';
import type { SignInPolicyAction } from './staff-actions';

/**
 * The staff page's sign-in setting: whether password sign-in is for admins only. Shown when an
 * identity provider is configured (`providerName`), or while the setting is on.
 */
export function SignInPolicy({ providerName, adminsOnly, setAdminsOnly }: { providerName: string | null; adminsOnly: boolean; setAdminsOnly: SignInPolicyAction }) {
  if (!providerName && !adminsOnly) return null;
  return (
    <section className="card" aria-labelledby="sign-in-policy-heading">
      <h2 id="sign-in-policy-heading">Sign-in</h2>
      <p>
        {adminsOnly
          ? `Password sign-in is for admins only: staff sign in with ${providerName ?? 'the identity provider'}.`
          : `Everyone may sign in with a password or with ${providerName}.`}
      </p>
      {adminsOnly ? (
        <ConfirmAction
          label="Let staff use passwords again"
          name="Let staff use passwords again"
          question="Let staff sign in with a password again?"
          confirmLabel="Yes, allow passwords"
          onConfirm={() => setAdminsOnly(false)}
        />
      ) : (
        <ConfirmAction
          label="Password sign-in for admins only"
          name="Password sign-in for admins only"
          question={`Turn password sign-in off for everyone but admins? Staff then sign in with ${providerName}, and staff signed in with a password are signed out.`}
          confirmLabel="Yes, admins only"
          danger
          onConfirm={() => setAdminsOnly(true)}
        />
      )}
    </section>
  );
}
