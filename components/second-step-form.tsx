'use client';
import { useState, type FormEvent } from 'react';
import { postAuthForm, reachedDestination, type AuthAnswer } from '@/lib/api-client/auth';
import { safeReturnPath } from '@/lib/auth/sessions/return-path';
import { SIGN_IN_UNAVAILABLE, waitSecondsOf } from '@/lib/auth/sessions/sign-in-refusal';
import { CODE_REPLAYED, SECOND_STEP_EXPIRED } from '@/lib/auth/second-factor/second-step';
import { Alert } from './notices';
import { SubmitActions } from './submit-actions';

const plural = (seconds: number) => `${seconds} second${seconds === 1 ? '' : 's'}`;

/** What the person is told when a code is refused; null when the sign-in has expired and the password must be given again. */
function refusalText(answer: AuthAnswer): string | null {
  const wait = answer.retryAfterSeconds ?? 1;
  if (answer.status === 429) return `Too many sign-in attempts from your network. Wait ${plural(wait)} and try again.`;
  if (answer.status === 503) return `The server is busy. Wait ${plural(wait)} and try again.`;
  const error = answer.next?.searchParams.get('error') ?? null;
  if (error === null) return 'Could not sign in. Reload the page and try again.';
  if (error === SECOND_STEP_EXPIRED) return null;
  if (error === SIGN_IN_UNAVAILABLE) return 'Signing in is not possible right now. Try again in a moment.';
  if (error === CODE_REPLAYED) return 'That code was used already. Wait for your app to show the next one.';
  const seconds = waitSecondsOf(error);
  if (seconds !== null) return `Too many wrong codes for this account. Wait ${plural(seconds)} and try again.`;
  return 'That code is not right. Enter the code your app shows now, or a recovery code.';
}

/** The sign-in's second step: the code from the authenticator app (or a recovery code), for the pending sign-in `pending`. */
export function SecondStepForm({ pending, callbackUrl, onExpired }: { pending: string; callbackUrl: string; onExpired: () => void }) {
  const [alert, setAlert] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const code = String(new FormData(form).get('code') ?? '');
    setBusy(true);
    setAlert('');
    try {
      const answer = await postAuthForm('callback/second-factor', { pending, code, callbackUrl });
      if (reachedDestination(answer)) {
        window.location.assign(safeReturnPath(callbackUrl));
        return;
      }
      const text = refusalText(answer);
      if (text === null) {
        onExpired();
        return;
      }
      setAlert(text);
      (form.elements.namedItem('code') as HTMLInputElement | null)?.select();
    } catch {
      setAlert('Could not reach the server. Check your connection and try again.');
    }
    setBusy(false);
  }

  return (
    <form onSubmit={submit} method="post" className="card narrow" aria-labelledby="second-step-heading">
      <h1 id="second-step-heading">Enter your code</h1>
      <p>Your password is right. Now enter the 6-digit code your authenticator app shows for Plant Store.</p>
      <div className="field">
        <label htmlFor="code">Code</label>
        <input
          id="code"
          name="code"
          type="text"
          autoComplete="one-time-code"
          spellCheck={false}
          autoCapitalize="off"
          required
          maxLength={64}
          aria-describedby="code-hint"
          autoFocus
        />
        <p id="code-hint" className="hint">
          Lost your phone? Enter one of your recovery codes instead; each works once.
        </p>
      </div>
      <SubmitActions busy={busy} label="Sign in" busyLabel="Checking…" />
      <div className="notice-area">
        <Alert>{alert}</Alert>
      </div>
    </form>
  );
}
