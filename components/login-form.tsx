'use client';
import { useState, type FormEvent } from 'react';
import { postAuthForm, reachedDestination, type AuthAnswer } from '@/lib/api-client/auth';
import { safeReturnPath } from '@/lib/auth/sessions/return-path';
import { isAccountDisabled, SIGN_IN_UNAVAILABLE, waitSecondsOf } from '@/lib/auth/sessions/sign-in-refusal';
import { secondStepTokenOf } from '@/lib/auth/second-factor/second-step';
import { PASSWORD_SIGN_IN_ADMINS_ONLY } from '@/lib/auth/oidc/refusals';
import { Alert } from './notices';
import { SecondStepForm } from './second-step-form';
import { SubmitActions } from './submit-actions';

const plural = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

function refusalText(answer: AuthAnswer): string {
  // Refused before any password was checked: too many attempts from this network, or the server
  // is checking as many passwords as it can.
  const wait = answer.retryAfterSeconds ?? 1;
  if (answer.status === 429) return `Too many sign-in attempts from your network. Wait ${plural(wait)} and try again.`;
  if (answer.status === 503) return `The server is busy. Wait ${plural(wait)} and try again.`;
  const error = answer.next?.searchParams.get('error') ?? null;
  if (error === null) return 'Could not sign in. Reload the page and try again.';
  if (error === SIGN_IN_UNAVAILABLE) return 'Signing in is not possible right now. Try again in a moment.';
  if (isAccountDisabled(error)) return 'This account is disabled. Ask an admin to enable it.';
  if (error === PASSWORD_SIGN_IN_ADMINS_ONLY) return 'Password sign-in is for admins only. Use the single sign-on button instead.';
  const seconds = waitSecondsOf(error);
  if (seconds !== null) {
    return `Too many failed sign-ins for this email. Wait ${plural(seconds)} and try again.`;
  }
  // The same words whether the email or the password was wrong: nothing to learn about accounts.
  return 'Wrong email or password.';
}

/** The password form; `adminsOnly`: below the identity provider's button, for admins (its heading says so). */
export function LoginForm({ callbackUrl, adminsOnly = false }: { callbackUrl: string; adminsOnly?: boolean }) {
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);
  // The pending sign-in's token, once the password was right and the account has a second factor.
  const [pending, setPending] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setAlert('');
    try {
      const answer = await postAuthForm('callback/credentials', {
        email: String(form.get('email') ?? ''),
        password: String(form.get('password') ?? ''),
        callbackUrl,
      });
      if (reachedDestination(answer)) {
        // A full load, so every server component renders with the new session; and only ever
        // to a path on this site, whatever the page was given.
        window.location.assign(safeReturnPath(callbackUrl));
        return;
      }
      const secondStep = secondStepTokenOf(answer.next?.searchParams.get('error') ?? '');
      if (secondStep !== null) setPending(secondStep);
      else setAlert(refusalText(answer));
    } catch {
      setAlert('Could not reach the server. Check your connection and try again.');
    }
    setBusy(false);
  }

  if (pending !== null) {
    const expired = () => {
      setPending(null);
      setAlert('Your sign-in took too long or has ended. Enter your password again.');
    };
    return <SecondStepForm pending={pending} callbackUrl={callbackUrl} onExpired={expired} />;
  }

  return (
    // POST, so a form sent before the page's script has run (a slow phone) never puts the password
    // in the address: the page answers it with the form again, empty.
    <form onSubmit={submit} method="post" className="card narrow">
      {adminsOnly ? <h2>Admins: sign in with a password</h2> : <h1>Sign in</h1>}
      <div className="field">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      <SubmitActions busy={busy} label="Sign in" busyLabel="Signing in…" />
      <div className="notice-area">
        <Alert>{alert}</Alert>
      </div>
    </form>
  );
}
