'use client';
// One endpoint's card: its events and state, its buttons (test event, disable or enable, rotate the
// secret, delete), a rotated secret shown once, and its recent deliveries.
import { useState } from 'react';
import { ConfirmAction } from '../confirm-action';
import { SecretBox } from '../secret-box';
import { Timestamp } from '../timestamp';
import { ActionButton } from './action-button';
import { Deliveries, type DeliveryView } from './deliveries';
import type { WebhookActions } from './webhook-actions';

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

export function Endpoint({ endpoint, actions }: { endpoint: EndpointView; actions: WebhookActions }) {
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
          <ActionButton label="Send test event" name={`Send test event to ${endpoint.url}`} run={() => actions.sendTestEventAction(endpoint.id)} />
        )}
        <ActionButton
          label={endpoint.enabled ? 'Disable' : 'Enable'}
          name={`${endpoint.enabled ? 'Disable' : 'Enable'} ${endpoint.url}`}
          run={() => actions.setEndpointEnabledAction(endpoint.id, !endpoint.enabled)}
        />
        <ConfirmAction
          label="Rotate secret"
          name={`Rotate secret of ${endpoint.url}`}
          question="Make a new signing secret? It is shown once; for a grace period the current one signs each delivery beside it, so the receiver can switch without a gap."
          confirmLabel="Yes, rotate"
          onConfirm={async () => {
            const outcome = await actions.rotateSecretAction(endpoint.id);
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
          onConfirm={() => actions.deleteEndpointAction(endpoint.id)}
        />
      </div>
      {rotated && <RotatedSecret url={endpoint.url} {...rotated} />}
      <h3 className="small-heading">Recent deliveries</h3>
      <Deliveries url={endpoint.url} deliveries={endpoint.deliveries} resendDeliveryAction={actions.resendDeliveryAction} />
    </section>
  );
}
