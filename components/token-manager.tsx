'use client';
import { useActionState, useState, useTransition } from 'react';
import { createTokenAction, revokeTokenAction, type CreateTokenState } from '@/app/(staff)/tokens/actions';
import { Timestamp } from './timestamp';

export type TokenRow = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
};

function NewSecret({ name, token }: { name: string; token: string }) {
  const [copied, setCopied] = useState('');
  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying is blocked here: select the token and copy it by hand.');
    }
  }
  return (
    <div className="new-secret" role="status">
      <p>
        <strong>Token “{name}” created.</strong> Copy it now: it will not be shown again.
      </p>
      <div className="secret-row">
        <code className="secret" aria-label="New token">
          {token}
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

function RevokeCell({ row }: { row: TokenRow }) {
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState('');
  const [pending, startTransition] = useTransition();
  if (row.revokedAt) return <span className="muted">Revoked</span>;
  if (!confirming) {
    return (
      <button type="button" className="secondary" onClick={() => setConfirming(true)} aria-label={`Revoke ${row.name}`}>
        Revoke
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Confirm revoking ${row.name}`}>
      <span>Revoke “{row.name}”? Programs using it stop working at once.</span>
      <button
        type="button"
        className="danger"
        disabled={pending}
        autoFocus
        onClick={() =>
          startTransition(async () => {
            const result = await revokeTokenAction(row.id);
            if (!result.ok) setMessage(result.message ?? 'Could not revoke the token.');
            setConfirming(false);
          })
        }
      >
        Yes, revoke
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        Cancel
      </button>
      {message && <span role="alert">{message}</span>}
    </div>
  );
}

export function TokenManager({ tokens }: { tokens: TokenRow[] }) {
  const [state, create, creating] = useActionState<CreateTokenState, FormData>(createTokenAction, { kind: 'idle' });

  return (
    <>
      <section className="card" aria-labelledby="create-heading">
        <h1 id="create-heading">API tokens</h1>
        <p className="muted">
          Programs call the API with <code>Authorization: Bearer &lt;token&gt;</code>. A token can do everything you can;
          give each program its own, so you can revoke one without touching the others.
        </p>
        <form action={create} className="inline-form">
          <div className="field">
            <label htmlFor="token-name">Name</label>
            <input id="token-name" name="name" required maxLength={100} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="token-expiry">Expires</label>
            <select id="token-expiry" name="expiresInDays" defaultValue="90">
              <option value="7">in 7 days</option>
              <option value="30">in 30 days</option>
              <option value="90">in 90 days</option>
              <option value="365">in a year</option>
              <option value="never">never</option>
            </select>
          </div>
          <div className="actions">
            <button type="submit" disabled={creating}>
              {creating ? 'Creating…' : 'Create token'}
            </button>
          </div>
        </form>
        {state.kind === 'created' && <NewSecret key={state.token} name={state.name} token={state.token} />}
        {state.kind === 'error' && (
          <p role="alert" className="notice error">
            {state.message}
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="list-heading">
        <h2 id="list-heading">Your tokens</h2>
        {tokens.length === 0 ? (
          <p className="muted">You have no tokens yet.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Token</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((row) => (
                  <tr key={row.id}>
                    <td>{row.name}</td>
                    <td className="mono nowrap">{row.prefix}…</td>
                    <td>
                      <Timestamp iso={row.createdAt} />
                    </td>
                    <td>
                      <Timestamp iso={row.lastUsedAt} none="never" />
                    </td>
                    <td>
                      <Timestamp iso={row.expiresAt} none="never" />
                    </td>
                    <td>
                      <RevokeCell row={row} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
