'use client';
// The account page's card of the second factor: its state, and the set-up or the removal.
import { useActionState } from 'react';
import { Alert } from '../notices';
import { SubmitActions } from '../submit-actions';
import { Enrolment } from './enrolment';
import type { RemoveState, SecondFactorActions } from './second-factor-actions';

export type SecondFactorView = { enrolled: boolean; enrolledAt: string | null; recoveryCodesLeft: number; required: boolean };

function Remove({ actions }: { actions: SecondFactorActions }) {
  const [state, remove, removing] = useActionState<RemoveState, FormData>(actions.removeSecondFactorAction, { kind: 'idle' });
  if (state.kind === 'removed') {
    return (
      <p className="notice success" role="status">
        Second factor removed. <a href="/account">Reload the page</a> to set up another.
      </p>
    );
  }
  return (
    <form action={remove} className="inline-form">
      <div className="field">
        <label htmlFor="remove-code">Code from your app (or a recovery code)</label>
        <input id="remove-code" name="code" type="text" autoComplete="one-time-code" maxLength={64} required />
      </div>
      <SubmitActions busy={removing} label="Remove second factor" busyLabel="Removing…" />
      <Alert>{state.kind === 'error' && state.message}</Alert>
    </form>
  );
}

export function SecondFactorCard({ view, actions }: { view: SecondFactorView; actions: SecondFactorActions }) {
  return (
    <section className="card" aria-labelledby="second-factor-heading">
      <h2 id="second-factor-heading">Second factor</h2>
      {view.enrolled ? (
        <>
          <p>
            <strong>On.</strong> Signing in asks for a code from your authenticator app after your password.{' '}
            {view.recoveryCodesLeft === 1 ? '1 recovery code is left.' : `${view.recoveryCodesLeft} recovery codes are left.`}
          </p>
          <p className="muted">
            To move to a new phone, remove it here and set it up again. {view.required && 'The store requires one of you: you are asked to set it up again at once.'}
          </p>
          <Remove actions={actions} />
        </>
      ) : (
        <>
          <p className="muted">
            Off. With a second factor, signing in also asks for a code from an app on your phone, so your password alone is
            not enough to get in.
          </p>
          <Enrolment actions={actions} next={{ href: '/account', label: 'Back to your account' }} />
        </>
      )}
    </section>
  );
}
