'use client';
// A secret shown once (a new API token, a one-time set-password link), with a copy button.
import { useState, type ReactNode } from 'react';

export function SecretBox({ children, secret, label }: { children: ReactNode; secret: string; label: string }) {
  const [copied, setCopied] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying is blocked here: select it and copy it by hand.');
    }
  }
  return (
    <div className="new-secret" role="status">
      {children}
      <div className="secret-row">
        <code className="secret" aria-label={label}>
          {secret}
        </code>
        <button type="button" onClick={copy}>
          Copy
        </button>
      </div>
      <p className="muted" aria-live="polite">
        {copied}
      </p>
    </div>
  );
}
