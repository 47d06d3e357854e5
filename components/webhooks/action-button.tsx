'use client';
import { useState, useTransition } from 'react';
import type { ActionOutcome } from '../confirm-action';
import { Alert } from '../notices';
import { ScriptButton } from '../script-button';

/** A button that runs a server action, and says what went wrong if it did not work. */
export function ActionButton({ label, name, run, className = 'secondary' }: { label: string; name: string; run: () => Promise<ActionOutcome>; className?: string }) {
  const [pending, startTransition] = useTransition();
  const [message, setMessage] = useState('');
  return (
    <>
      <ScriptButton
        className={className}
        aria-label={name}
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const outcome = await run();
            setMessage(outcome.ok ? '' : (outcome.message ?? 'That did not work. Reload the page and try again.'));
          })
        }
      >
        {label}
      </ScriptButton>
      <Alert as="span">{message}</Alert>
    </>
  );
}
