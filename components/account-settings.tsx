'use client';
import { useActionState, useState, useTransition } from 'react';
import type { ActionOutcome } from './confirm-action';
import { Alert } from './notices';
import { SubmitActions } from './submit-actions';
import { ScriptButton } from './script-button';

export type ChangePasswordState = { kind: 'idle' } | { kind: 'changed' } | { kind: 'error'; message: string };

/** The account page's server actions (app/(staff)/account/actions.ts), which the page hands in. */
export type AccountActions = {
  changePasswordAction: (state: ChangePasswordState, form: FormData) => Promise<ChangePasswordState>;
  signOutEverywhereAction: () => Promise<ActionOutcome>;
};

const SIGN_IN_AGAIN = `/login?callbackUrl=${encodeURIComponent('/account')}`;
const AFTER_SIGN_OUT = '/login';

function ChangePassword({ minLength, changePasswordAction }: { minLength: number; changePasswordAction: AccountActions['changePasswordAction'] }) {
  const [state, change, changing] = useActionState<ChangePasswordState, FormData>(changePasswordAction, { kind: 'idle' });
  if (state.kind === 'changed') {
    return (
      <div className="notice success" role="status">
        <p>Password changed. Every session of your account has ended, this one too.</p>
        <p>
          <a href={SIGN_IN_AGAIN}>Sign in with your new password</a>
        </p>
      </div>
    );
  }
  return (
    <form action={change}>
      <div className="field">
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required />
      </div>
      <div className="field">
        <label htmlFor="new-password">New password</label>
        <input
          id="new-password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          aria-describedby="new-password-hint"
        />
        <p id="new-password-hint" className="hint">
          At least {minLength} characters. Common passwords are refused; a few unrelated words make a good one.
        </p>
      </div>
      <SubmitActions busy={changing} label="Change password" busyLabel="Changing…" />
      <div className="notice-area">
        <Alert>{state.kind === 'error' && state.message}</Alert>
      </div>
    </form>
  );
}

function SignOutEverywhere({ signOutEverywhereAction }: { signOutEverywhereAction: AccountActions['signOutEverywhereAction'] }) {
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  return (
    <>
      <ScriptButton
        className="secondary"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const outcome = await signOutEverywhereAction();
            // A full load on purpose, as after signing out: the client router's cache still holds
            // signed-in pages.
            // eslint-disable-next-line @next/next/no-location-assign-relative-destination
            if (outcome.ok) window.location.assign(AFTER_SIGN_OUT);
            else setMessage(outcome.message ?? 'That did not work. Reload the page and try again.');
          })
        }
      >
        Sign out everywhere
      </ScriptButton>
      <Alert>{message}</Alert>
    </>
  );
}

export function AccountSettings({ email, role, minLength, actions }: { email: string; role: string; minLength: number; actions: AccountActions }) {
  return (
    <>
      <section className="card" aria-labelledby="account-heading">
        <h1 id="account-heading">Your account</h1>
        <p>
          Signed in as <strong>{email}</strong> ({role}).
        </p>
        <h2 id="password-heading">Change password</h2>
        <ChangePassword minLength={minLength} changePasswordAction={actions.changePasswordAction} />
      </section>
      <section className="card" aria-labelledby="everywhere-heading">
        <h2 id="everywhere-heading">Sign out everywhere</h2>
        <p className="muted">
          Ends every session of your account, on every device, this one too, and the pages&apos; API access with them.
          Your API tokens keep working: revoke them on the API tokens page.
        </p>
        <SignOutEverywhere signOutEverywhereAction={actions.signOutEverywhereAction} />
      </section>
    </>
  );
}
