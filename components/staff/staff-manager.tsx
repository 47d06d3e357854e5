'use client';
import { useActionState, useState } from 'react';
import { ROLE_LABELS, ROLES, type Role } from '@/lib/auth/scopes';
import { ConfirmAction } from '../confirm-action';
import { DataTable, TimeCell } from '../data-table';
import { Alert } from '../notices';
import { OneTimeLink } from '../one-time-link';
import { SubmitActions } from '../submit-actions';
import type { AddStaffState, StaffActions } from './staff-actions';

export type StaffRow = {
  id: string;
  email: string;
  role: Role;
  disabled: boolean;
  hasPassword: boolean;
  lastSignInAt: string | null;
  /** Whether the account has a second factor. */
  secondFactor: boolean;
};

function statusOf(row: StaffRow): string {
  if (row.disabled) return 'Disabled';
  if (row.hasPassword) return 'Active';
  // Made by a first sign-in through the identity provider (or reset since it signed in): it has a way in without one.
  return row.lastSignInAt ? 'Active, no password' : 'Waiting for a password';
}

/** A new link for an account: its path to hand over, or null when it was emailed to the account. */
type NewLink = (email: string, path: string | null) => void;

function RowActions({ row, actions, mailOn, onLink }: { row: StaffRow; actions: StaffActions; mailOn: boolean; onLink: NewLink }) {
  const otherRole: Role = row.role === 'admin' ? 'staff' : 'admin';
  return (
    <div className="row-actions">
      {row.disabled ? (
        <ConfirmAction
          label="Enable"
          name={`Enable ${row.email}`}
          question={`Enable ${row.email}? They can sign in again, and their API tokens work again.`}
          confirmLabel="Yes, enable"
          onConfirm={() => actions.enableAccountAction(row.id)}
        />
      ) : (
        <ConfirmAction
          label="Disable"
          name={`Disable ${row.email}`}
          question={`Disable ${row.email}? They are signed out at once and their API tokens stop working.`}
          confirmLabel="Yes, disable"
          danger
          onConfirm={() => actions.disableAccountAction(row.id)}
        />
      )}
      <ConfirmAction
        label="Reset password"
        name={`Reset password of ${row.email}`}
        question={`Reset ${row.email}'s password? The current one stops working and they are signed out; ${mailOn ? 'a new link is emailed to them' : 'you get a new link to hand over'}.`}
        confirmLabel="Yes, reset"
        danger
        onConfirm={async () => {
          const outcome = await actions.resetPasswordAction(row.id);
          if (outcome.linkPath || outcome.emailed) onLink(row.email, outcome.linkPath ?? null);
          return outcome;
        }}
      />
      <ConfirmAction
        label="Change role"
        name={`Change role of ${row.email}`}
        question={`Make ${row.email} ${otherRole === 'admin' ? 'an admin' : 'staff'}? They are signed out, and sign in again with the new role.`}
        confirmLabel={`Yes, make ${otherRole === 'admin' ? 'admin' : 'staff'}`}
        onConfirm={() => actions.setRoleAction(row.id, otherRole)}
      />
      {row.secondFactor && (
        <ConfirmAction
          label="Reset second factor"
          name={`Reset second factor of ${row.email}`}
          question={`Reset ${row.email}'s second factor? Their authenticator app and recovery codes stop working and they are signed out; they sign in with their password and can set up a new one.`}
          confirmLabel="Yes, reset"
          danger
          onConfirm={() => actions.resetSecondFactorAction(row.id)}
        />
      )}
    </div>
  );
}

export function StaffManager({ accounts, me, actions, mailOn }: { accounts: StaffRow[]; me: string; actions: StaffActions; mailOn: boolean }) {
  const [state, add, adding] = useActionState<AddStaffState, FormData>(actions.addStaffMemberAction, { kind: 'idle' });
  const [reset, setReset] = useState<{ email: string; path: string | null } | null>(null);

  return (
    <>
      <section className="card" aria-labelledby="add-staff-heading">
        <h1 id="add-staff-heading">Staff</h1>
        <p className="muted">
          Admins manage accounts, webhooks and every API token; staff keep the catalogue and their own tokens. A new member
          gets a one-time link to set their password:{' '}
          {mailOn ? 'it is sent to their email address.' : 'this server does not send email, so hand it over yourself.'}
        </p>
        <form action={add} className="inline-form">
          <div className="field">
            <label htmlFor="staff-email">Email</label>
            <input id="staff-email" name="email" type="email" required maxLength={254} autoComplete="off" />
          </div>
          <div className="field">
            <label htmlFor="staff-role">Role</label>
            <select id="staff-role" name="role" defaultValue="staff">
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
          </div>
          <SubmitActions busy={adding} label="Add staff member" busyLabel="Adding…" />
        </form>
        {state.kind === 'created' && (
          <OneTimeLink key={state.linkPath} email={state.email} path={state.linkPath} intro={`Account for ${state.email} created.`} />
        )}
        <p role="status" className={state.kind === 'invited' ? 'notice success' : 'notice'}>
          {state.kind === 'invited' && `Account for ${state.email} created. We emailed them a link to set their password; it works once, for 24 hours.`}
        </p>
        <Alert>{state.kind === 'error' && state.message}</Alert>
      </section>

      <section className="card" aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Accounts</h2>
        {reset?.path && <OneTimeLink key={reset.path} email={reset.email} path={reset.path} intro={`Password of ${reset.email} reset.`} />}
        <p role="status" className={reset && !reset.path ? 'notice success' : 'notice'}>
          {reset && !reset.path && `Password of ${reset.email} reset. We emailed them a new link to set one; it works once, for 24 hours.`}
        </p>
        <DataTable labelledBy="accounts-heading" className="many-columns" columns={['Email', 'Role', 'Status', 'Second factor', 'Last sign-in', { hidden: 'Actions' }]}>
          {accounts.map((row) => (
            <tr key={row.id}>
              <td>
                {row.email}
                {row.id === me && <span className="muted"> (you)</span>}
              </td>
              <td>{ROLE_LABELS[row.role]}</td>
              <td>{statusOf(row)}</td>
              <td>{row.secondFactor ? 'On' : 'Off'}</td>
              <TimeCell iso={row.lastSignInAt} none="never" />
              <td>
                <RowActions row={row} actions={actions} mailOn={mailOn} onLink={(email, path) => setReset({ email, path })} />
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
    </>
  );
}
