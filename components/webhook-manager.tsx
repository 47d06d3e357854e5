'use client';
// The /webhooks page: add an endpoint (its signing secret shown once), switch it off and on, send
// it a test event, rotate its secret (the new one shown once), follow its recent deliveries, resend
// a failed one, delete it. While a delivery is on its way, the page refreshes itself every few
// seconds.
import { useRouter } from 'next/navigation';
import { useActionState, useEffect, useState, useTransition } from 'react';
import {
  createEndpointAction,
  deleteEndpointAction,
  resendDeliveryAction,
  rotateSecretAction,
  sendTestEventAction,
  setEndpointEnabledAction,
  type ActionOutcome,
  type CreateEndpointState,
} from '@/app/(staff)/webhooks/actions';
import { ConfirmAction } from './confirm-action';
import { SecretBox } from './secret-box';
import { Timestamp } from './timestamp';
import { SubmitActions } from './submit-actions';
import { ScriptButton } from './script-button';

export type DeliveryView = {
  id: string;
  eventType: string;
  messageId: string;
  plantId: string | null;
  status: 'pending' | 'delivering' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
};

export type EndpointView = {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  /** Until when the secret before the latest rotation still signs beside the new one (ISO), or null. */
  previousSecretSignsUntil: string | null;
  deliveries: DeliveryView[];
};

const REFRESH_WHILE_PENDING_MS = 2000;

function statusLabel(delivery: DeliveryView): string {
  if (delivery.status === 'pending') return delivery.attempts > 0 ? 'Retrying' : 'Waiting';
  return { delivering: 'Sending', succeeded: 'Delivered', failed: 'Failed' }[delivery.status];
}

/** A button that runs a server action, and says what went wrong if it did not work. */
function ActionButton({ label, name, run, className = 'secondary' }: { label: string; name: string; run: () => Promise<ActionOutcome>; className?: string }) {
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
      {message && (
        <span role="alert" className="notice error">
          {message}
        </span>
      )}
    </>
  );
}

function Deliveries({ endpoint }: { endpoint: EndpointView }) {
  if (endpoint.deliveries.length === 0) return <p className="muted">No deliveries yet. Send a test event to try it.</p>;
  return (
    <div className="table-scroll">
      <table>
        <caption className="visually-hidden">Recent deliveries to {endpoint.url}</caption>
        <thead>
          <tr>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempt</th>
            <th scope="col">Answer</th>
            <th scope="col">Duration</th>
            <th scope="col">Next retry</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {endpoint.deliveries.map((delivery) => (
            <tr key={delivery.id}>
              <td>
                {delivery.eventType}
                {delivery.plantId && <span className="muted"> · plant {delivery.plantId}</span>}
                <br />
                <span className="mono muted small">{delivery.messageId}</span>
              </td>
              <td>
                <span className={`badge badge-${delivery.status}`}>{statusLabel(delivery)}</span>
              </td>
              <td>{delivery.attempts}</td>
              <td>
                {delivery.lastStatusCode ?? (delivery.lastError ? '' : <span className="muted">-</span>)}
                {delivery.lastError && <span className="small"> {delivery.lastError}</span>}
              </td>
              <td className="nowrap">{delivery.lastDurationMs === null ? <span className="muted">-</span> : `${delivery.lastDurationMs} ms`}</td>
              <td>
                <Timestamp iso={delivery.nextAttemptAt} precision="second" />
              </td>
              <td>
                {delivery.status === 'failed' && (
                  <ActionButton label="Resend" name={`Resend ${delivery.eventType} ${delivery.messageId}`} run={() => resendDeliveryAction(delivery.id)} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A new signing secret, shown once, and how long the one before still signs. */
function RotatedSecret({ url, secret, previousSecretSignsUntil }: { url: string; secret: string; previousSecretSignsUntil: string | null }) {
  return (
    <SecretBox key={secret} secret={secret} label="New signing secret">
      <p>
        <strong>New signing secret for {url}.</strong> Copy it now: it will not be shown again.{' '}
        {previousSecretSignsUntil ? (
          <>
            Until <Timestamp iso={previousSecretSignsUntil} />, each delivery is signed with the previous secret too, so the receiver can switch to this
            one in the meantime.
          </>
        ) : (
          'The previous secret no longer signs.'
        )}
      </p>
    </SecretBox>
  );
}

function Endpoint({ endpoint }: { endpoint: EndpointView }) {
  const headingId = `endpoint-${endpoint.id}`;
  const [rotated, setRotated] = useState<{ secret: string; previousSecretSignsUntil: string | null } | null>(null);
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId} className="endpoint-url">
        {endpoint.url}
      </h2>
      <p className="muted">
        <span className={`badge ${endpoint.enabled ? 'badge-succeeded' : 'badge-off'}`}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span>{' '}
        {endpoint.events.join(', ')} · added <Timestamp iso={endpoint.createdAt} /> · <span className="mono">{endpoint.id}</span>
        {endpoint.previousSecretSignsUntil && (
          <>
            {' '}
            · previous secret signs until <Timestamp iso={endpoint.previousSecretSignsUntil} />
          </>
        )}
      </p>
      <div className="button-row">
        {endpoint.enabled && (
          <ActionButton label="Send test event" name={`Send test event to ${endpoint.url}`} run={() => sendTestEventAction(endpoint.id)} />
        )}
        <ActionButton
          label={endpoint.enabled ? 'Disable' : 'Enable'}
          name={`${endpoint.enabled ? 'Disable' : 'Enable'} ${endpoint.url}`}
          run={() => setEndpointEnabledAction(endpoint.id, !endpoint.enabled)}
        />
        <ConfirmAction
          label="Rotate secret"
          name={`Rotate secret of ${endpoint.url}`}
          question="Make a new signing secret? It is shown once; for a grace period the current one signs each delivery beside it, so the receiver can switch without a gap."
          confirmLabel="Yes, rotate"
          onConfirm={async () => {
            const outcome = await rotateSecretAction(endpoint.id);
            if (outcome.ok) setRotated({ secret: outcome.secret, previousSecretSignsUntil: outcome.previousSecretSignsUntil });
            return outcome;
          }}
        />
        <ConfirmAction
          label="Delete"
          name={`Delete ${endpoint.url}`}
          question="Delete this endpoint? Deliveries still owed to it are dropped."
          confirmLabel="Yes, delete"
          danger
          onConfirm={() => deleteEndpointAction(endpoint.id)}
        />
      </div>
      {rotated && <RotatedSecret url={endpoint.url} {...rotated} />}
      <h3 className="small-heading">Recent deliveries</h3>
      <Deliveries endpoint={endpoint} />
    </section>
  );
}

export function WebhookManager({ endpoints, eventTypes, eventsAwaitDelivery }: { endpoints: EndpointView[]; eventTypes: string[]; eventsAwaitDelivery: boolean }) {
  const router = useRouter();
  const [state, create, creating] = useActionState<CreateEndpointState, FormData>(createEndpointAction, { kind: 'idle' });
  // Followed until done: deliveries under way, and events the dispatcher has not yet made
  // deliveries of (a test event's delivery appears only once it has).
  const waiting =
    eventsAwaitDelivery || endpoints.some((endpoint) => endpoint.deliveries.some((delivery) => delivery.status === 'pending' || delivery.status === 'delivering'));

  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => router.refresh(), REFRESH_WHILE_PENDING_MS);
    return () => clearInterval(timer);
  }, [waiting, router]);

  return (
    <>
      <section className="card" aria-labelledby="webhooks-heading">
        <h1 id="webhooks-heading">Webhooks</h1>
        <p className="muted">
          Plant Store POSTs each change to these URLs: <code>plant.created</code>, <code>plant.updated</code> and{' '}
          <code>plant.deleted</code>, signed as Standard Webhooks describes, retried until the receiver answers 2xx.
        </p>
        <form action={create}>
          <div className="field">
            <label htmlFor="webhook-url">URL</label>
            <input id="webhook-url" name="url" type="url" required maxLength={2048} placeholder="https://example.com/webhooks" autoComplete="off" />
          </div>
          <fieldset className="checkboxes">
            <legend>Events</legend>
            {eventTypes.map((type) => (
              <label key={type} className="checkbox">
                <input type="checkbox" name="events" value={type} defaultChecked /> {type}
              </label>
            ))}
          </fieldset>
          <SubmitActions busy={creating} label="Add endpoint" busyLabel="Adding…" />
        </form>
        {state.kind === 'created' && (
          <SecretBox key={state.secret} secret={state.secret} label="Signing secret">
            <p>
              <strong>Endpoint {state.url} added.</strong> Its signing secret is below: copy it now, it will not be shown again.
            </p>
          </SecretBox>
        )}
        {state.kind === 'error' && (
          <p role="alert" className="notice error">
            {state.message}
          </p>
        )}
      </section>
      {endpoints.length === 0 ? (
        <section className="card" aria-label="Endpoints">
          <p className="muted">No endpoints yet.</p>
        </section>
      ) : (
        endpoints.map((endpoint) => <Endpoint key={endpoint.id} endpoint={endpoint} />)
      )}
      <p>
        <ScriptButton className="secondary" onClick={() => router.refresh()}>
          Refresh deliveries
        </ScriptButton>
      </p>
    </>
  );
}
