'use client';
// Setting up a second factor: the QR code and the secret as text for the authenticator app, a first
// code to confirm it, then the ten recovery codes, shown once.
import { useActionState, useState, useTransition } from 'react';
import { Alert } from '../notices';
import { ScriptButton } from '../script-button';
import { SecretBox } from '../secret-box';
import { SubmitActions } from '../submit-actions';
import type { ConfirmState, EnrolmentStart, SecondFactorActions } from './second-factor-actions';

function RecoveryCodes({ codes, next }: { codes: string[]; next: { href: string; label: string } }) {
  return (
    <div className="recovery-codes">
      <SecretBox secret={codes.join('\n')} label="Recovery codes">
        <p>
          <strong>Your second factor is on.</strong> Keep these recovery codes somewhere safe, away from your phone: each
          signs you in once if you lose it. They are not shown again.
        </p>
      </SecretBox>
      <ol className="code-list" aria-label="Your recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <p>
        <a href={next.href}>{next.label}</a>
      </p>
    </div>
  );
}

function Confirm({ started, actions, next }: { started: Extract<EnrolmentStart, { ok: true }>; actions: SecondFactorActions; next: { href: string; label: string } }) {
  const [state, confirm, confirming] = useActionState<ConfirmState, FormData>(actions.confirmEnrolmentAction, { kind: 'idle' });
  if (state.kind === 'confirmed') return <RecoveryCodes codes={state.recoveryCodes} next={next} />;
  return (
    <>
      <ol className="steps">
        <li>
          <p>Scan this QR code with an authenticator app (such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis).</p>
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn on the server, nothing to optimise */}
          <img className="qr-code" src={started.qrCode} width={200} height={200} alt="QR code of your second factor for an authenticator app" />
        </li>
        <li>
          <p>Or, if you cannot scan it, type this key into the app (a time-based code, 6 digits, every 30 seconds):</p>
          <SecretBox secret={started.secret} label="Key for your authenticator app">
            <p>Key for your authenticator app:</p>
          </SecretBox>
          <details>
            <summary>The whole setup address</summary>
            <code className="secret">{started.uri}</code>
          </details>
        </li>
        <li>
          <form action={confirm}>
            <div className="field">
              <label htmlFor="enrol-code">Code the app shows now</label>
              <input id="enrol-code" name="code" type="text" inputMode="numeric" autoComplete="one-time-code" maxLength={64} required />
            </div>
            <SubmitActions busy={confirming} label="Turn on" busyLabel="Checking…" />
            <div className="notice-area">
              <Alert>{state.kind === 'error' && state.message}</Alert>
            </div>
          </form>
        </li>
      </ol>
    </>
  );
}

/** The set-up, from its first button; `next` is where the person goes once it is done. */
export function Enrolment({ actions, next }: { actions: SecondFactorActions; next: { href: string; label: string } }) {
  const [started, setStarted] = useState<Extract<EnrolmentStart, { ok: true }> | null>(null);
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  if (started) return <Confirm key={started.secret} started={started} actions={actions} next={next} />;
  return (
    <>
      <ScriptButton
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const answer = await actions.startEnrolmentAction();
            if (answer.ok) setStarted(answer);
            else setMessage(answer.message);
          })
        }
      >
        Set up a second factor
      </ScriptButton>
      <Alert>{message}</Alert>
    </>
  );
}
