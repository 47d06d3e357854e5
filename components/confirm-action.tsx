'use client';
// A button whose action asks first: "Revoke …?", "Disable …?". The question says what will
// happen; the confirming button takes the focus, and Cancel changes nothing.
import { useState, useTransition } from 'react';
import { ScriptButton } from './script-button';

export type ActionOutcome = { ok: boolean; message?: string };

export function ConfirmAction({
  label,
  name,
  question,
  confirmLabel,
  danger = false,
  onConfirm,
}: {
  /** The button's text, e.g. "Revoke". */
  label: string;
  /** Its accessible name, naming what it acts on, e.g. "Revoke ci deploy". */
  name: string;
  question: string;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<ActionOutcome>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  if (!confirming) {
    return (
      <>
        <ScriptButton className="secondary" onClick={() => setConfirming(true)} aria-label={name}>
          {label}
        </ScriptButton>
        {message && <span role="alert">{message}</span>}
      </>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Confirm: ${name}`}>
      <span>{question}</span>
      <button
        type="button"
        className={danger ? 'danger' : undefined}
        disabled={pending}
        autoFocus
        onClick={() =>
          startTransition(async () => {
            const outcome = await onConfirm();
            setMessage(outcome.ok ? '' : (outcome.message ?? 'That did not work. Reload the page and try again.'));
            setConfirming(false);
          })
        }
      >
        {confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
    </div>
  );
}
