'use client';
// "Forgot your password?": asks the server to send a set-password link to an address. The answer
// is the same whether or not an account has it. Without email on the server, the page says whom to
// ask instead.
import { useActionState } from 'react';
import { Alert } from './notices';
import { SubmitActions } from './submit-actions';

export type ForgotPasswordState = { kind: 'idle' } | { kind: 'sent'; email: string } | { kind: 'error'; message: string; email?: string };

/** The page's server action (app/forgot-password/actions.ts), which the page hands in. */
export type ForgotPasswordAction = (state: ForgotPasswordState, form: FormData) => Promise<ForgotPasswordState>;

export function ForgotPasswordForm({ mailOn, action }: { mailOn: boolean; action: ForgotPasswordAction }) {
  const [state, send, sending] = useActionState<ForgotPasswordState, FormData>(action, { kind: 'idle' });
  return (
    <section className="card narrow" aria-labelledby="forgot-password-heading">
      <h1 id="forgot-password-heading">Forgot your password?</h1>
      {mailOn ? (
        <>
          <p>Enter your account&apos;s email, and we send you a link to set a new password.</p>
          <form action={send}>
            <div className="field">
              <label htmlFor="email">Email</label>
              {/* React empties a form once its action is done: the address asked for stays in it. */}
              <input
                id="email"
                name="email"
                type="email"
                autoComplete="username"
                required
                maxLength={254}
                defaultValue={state.kind === 'idle' ? undefined : state.email}
              />
            </div>
            <SubmitActions busy={sending} label="Send link" busyLabel="Sending…" />
          </form>
          <div className="notice-area">
            <p role="status" className={state.kind === 'sent' ? 'notice success' : 'notice'}>
              {state.kind === 'sent' &&
                `If an account exists for ${state.email}, we sent a link to it. The link works once, for 24 hours; nothing there after a few minutes? Look in the spam folder.`}
            </p>
            <Alert>{state.kind === 'error' && state.message}</Alert>
          </div>
        </>
      ) : (
        <p>
          This server does not send email. Ask an admin of the store to reset your password: they give you a link to set a
          new one.
        </p>
      )}
      <p>
        <a href="/login">Back to sign in</a>
      </p>
    </section>
  );
}
