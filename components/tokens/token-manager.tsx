'use client';
import { useActionState } from 'react';
import { DEFAULT_TOKEN_SCOPES, SCOPE_DESCRIPTIONS, type Scope } from '@/lib/auth/scopes';
import { ConfirmAction } from '../confirm-action';
import { DataTable, TimeCell } from '../data-table';
import { Alert } from '../notices';
import { SecretBox } from '../secret-box';
import { SubmitActions } from '../submit-actions';
import type { CreateTokenState, TokenActions } from './token-actions';

export type TokenRow = {
  id: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  /** Shown to admins, who see everyone's tokens: the owner's email, or null for an operator's. */
  owner?: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
};

function RevokeCell({ row, revokeTokenAction }: { row: TokenRow; revokeTokenAction: TokenActions['revokeTokenAction'] }) {
  if (row.revokedAt) return <span className="muted">Revoked</span>;
  return (
    <ConfirmAction
      label="Revoke"
      name={`Revoke ${row.name}`}
      question={`Revoke “${row.name}”? Programs using it stop working at once.`}
      confirmLabel="Yes, revoke"
      danger
      onConfirm={() => revokeTokenAction(row.id)}
    />
  );
}

/** An email that may break before its @ in a narrow column (the table then fits a small window). */
function BreakableEmail({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}

export function TokenManager({ tokens, scopes, everyone, actions }: { tokens: TokenRow[]; scopes: readonly Scope[]; everyone: boolean; actions: TokenActions }) {
  const [state, create, creating] = useActionState<CreateTokenState, FormData>(actions.createTokenAction, { kind: 'idle' });

  return (
    <>
      <section className="card" aria-labelledby="create-heading">
        <h1 id="create-heading">API tokens</h1>
        <p className="muted">
          Programs call the API with <code>Authorization: Bearer &lt;token&gt;</code>. A token can do what its scopes
          allow, and never more than your account; give each program its own, so you can revoke one without touching the
          others.
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
          <fieldset className="scopes">
            <legend>Scopes</legend>
            {scopes.map((scope) => (
              <label key={scope} className="checkbox">
                <input type="checkbox" name="scopes" value={scope} defaultChecked={DEFAULT_TOKEN_SCOPES.includes(scope)} />
                <span>
                  <code>{scope}</code> <span className="muted">{SCOPE_DESCRIPTIONS[scope]}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <SubmitActions busy={creating} label="Create token" busyLabel="Creating…" />
        </form>
        {state.kind === 'created' && (
          <SecretBox key={state.token} secret={state.token} label="New token">
            <p>
              <strong>Token “{state.name}” created.</strong> Copy it now: it will not be shown again.
            </p>
          </SecretBox>
        )}
        <Alert>{state.kind === 'error' && state.message}</Alert>
      </section>

      <section className="card" aria-labelledby="list-heading">
        <h2 id="list-heading">{everyone ? 'All tokens' : 'Your tokens'}</h2>
        {everyone && <p className="muted">As an admin you see, and may revoke, every account&apos;s tokens.</p>}
        {tokens.length === 0 ? (
          <p className="muted">{everyone ? 'There are no tokens yet.' : 'You have no tokens yet.'}</p>
        ) : (
          <DataTable
            className="many-columns"
            labelledBy="list-heading"
            columns={['Name', everyone && 'Owner', 'Token', 'Scopes', 'Created', 'Last used', 'Expires', { hidden: 'Actions' }]}
          >
            {tokens.map((row) => (
              <tr key={row.id}>
                <td>{row.name}</td>
                {everyone && <td>{row.owner ? <BreakableEmail address={row.owner} /> : <span className="muted">operator (CLI)</span>}</td>}
                <td className="mono nowrap">{row.prefix}…</td>
                <td className="scope-list">
                  {row.scopes.map((scope) => (
                    <code key={scope}>{scope}</code>
                  ))}
                </td>
                <TimeCell iso={row.createdAt} />
                <TimeCell iso={row.lastUsedAt} none="never" />
                <TimeCell iso={row.expiresAt} none="never" />
                <td>
                  <RevokeCell row={row} revokeTokenAction={actions.revokeTokenAction} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </>
  );
}
