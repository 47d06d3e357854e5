'use client';
// Sets a password through a one-time link. The secret is in the URL's fragment, which never
// reaches a server or a log; this page reads it and sends it with the new password.
import { useEffect, useState, type FormEvent } from 'react';
import { PASSWORD_LINK_MESSAGES, SECRET_SHAPE } from '@/lib/auth/passwords/link-shape';
import { Alert } from './notices';
import { SubmitActions } from './submit-actions';

export type LinkCheck = { usable: true; email: string } | { usable: false; message: string };

export type SetPasswordOutcome = { ok: true; email: string } | { ok: false; message: string; linkUsable: boolean };

/** The page's server actions (app/set-password/actions.ts), which the page hands in. */
export type SetPasswordActions = {
  checkPasswordLinkAction: (secret: string) => Promise<LinkCheck>;
  setPasswordAction: (secret: string, password: string) => Promise<SetPasswordOutcome>;
};

type Stage =
  | { kind: 'checking' }
  | { kind: 'ready'; email: string; error: string }
  | { kind: 'refused'; message: string }
  | { kind: 'done'; email: string };

const secretOf = () => window.location.hash.slice(1);

export function SetPasswordForm({ minLength, actions }: { minLength: number; actions: SetPasswordActions }) {
  const { checkPasswordLinkAction, setPasswordAction } = actions;
  const [stage, setStage] = useState<Stage>({ kind: 'checking' });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    const check = () => {
      const secret = secretOf();
      // No link, or not one at all (cut short in copying, say): said at once, as the server would.
      if (!SECRET_SHAPE.test(secret)) return setStage({ kind: 'refused', message: PASSWORD_LINK_MESSAGES.invalid });
      setStage({ kind: 'checking' });
      checkPasswordLinkAction(secret).then(
        (link) => {
          if (!current || secret !== secretOf()) return;
          setStage(link.usable ? { kind: 'ready', email: link.email, error: '' } : { kind: 'refused', message: link.message });
        },
        () => current && setStage({ kind: 'refused', message: 'Could not reach the server. Check your connection and reload the page.' }),
      );
    };
    check();
    // Another link pasted into this tab changes only the fragment: no new page load.
    window.addEventListener('hashchange', check);
    return () => {
      current = false;
      window.removeEventListener('hashchange', check);
    };
  }, [checkPasswordLinkAction]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (stage.kind !== 'ready') return;
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    setBusy(true);
    try {
      const outcome = await setPasswordAction(secretOf(), password);
      if (outcome.ok) setStage({ kind: 'done', email: outcome.email });
      else if (outcome.linkUsable) setStage({ ...stage, error: outcome.message });
      else setStage({ kind: 'refused', message: outcome.message });
    } catch {
      setStage({ ...stage, error: 'Could not reach the server. Check your connection and try again.' });
    }
    setBusy(false);
  }

  return (
    <section className="card narrow" aria-labelledby="set-password-heading">
      <h1 id="set-password-heading">Set your password</h1>
      {stage.kind === 'checking' && <p className="muted">Checking the link…</p>}
      <Alert>{stage.kind === 'refused' && stage.message}</Alert>
      {stage.kind === 'done' && (
        <div role="status" className="notice success">
          <p>Password set for {stage.email}.</p>
          <p>
            <a href="/login">Sign in</a>
          </p>
        </div>
      )}
      {stage.kind === 'ready' && (
        <form onSubmit={submit}>
          <p>
            For <strong>{stage.email}</strong>. This link works once.
          </p>
          {/* Lets a password manager store the new password under the right account. */}
          <input type="email" name="username" value={stage.email} autoComplete="username" readOnly hidden />
          <div className="field">
            <label htmlFor="password">New password</label>
            <input
              id="password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              aria-invalid={stage.error ? true : undefined}
              aria-describedby="password-hint password-error"
            />
            <p id="password-hint" className="hint">
              At least {minLength} characters. Common passwords are refused; a few unrelated words make a good one.
            </p>
            <p id="password-error" className="field-error">
              {stage.error}
            </p>
          </div>
          <SubmitActions busy={busy} label="Set password" busyLabel="Setting…" />
        </form>
      )}
    </section>
  );
}
