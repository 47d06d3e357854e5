'use client';
// The /webhooks page: add an endpoint (its signing secret shown once), switch it off and on, send
// it a test event, rotate its secret (the new one shown once), follow its recent deliveries, resend
// a failed one, delete it. While a delivery is on its way, the page refreshes itself every few
// seconds.
import { useRouter } from 'next/navigation';
import { useActionState, useEffect } from 'react';
import { Alert } from '../notices';
import { SecretBox } from '../secret-box';
import { SubmitActions } from '../submit-actions';
import { ScriptButton } from '../script-button';
import { Endpoint, type EndpointView } from './endpoint';
import type { CreateEndpointState, WebhookActions } from './webhook-actions';

const REFRESH_WHILE_PENDING_MS = 2000;

export function WebhookManager({
  endpoints,
  eventTypes,
  eventsAwaitDelivery,
  actions,
}: {
  endpoints: EndpointView[];
  eventTypes: string[];
  eventsAwaitDelivery: boolean;
  actions: WebhookActions;
}) {
  const router = useRouter();
  const [state, create, creating] = useActionState<CreateEndpointState, FormData>(actions.createEndpointAction, { kind: 'idle' });
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
        <Alert>{state.kind === 'error' && state.message}</Alert>
      </section>
      {endpoints.length === 0 ? (
        <section className="card" aria-label="Endpoints">
          <p className="muted">No endpoints yet.</p>
        </section>
      ) : (
        endpoints.map((endpoint) => <Endpoint key={endpoint.id} endpoint={endpoint} actions={actions} />)
      )}
      <p>
        <ScriptButton className="secondary" onClick={() => router.refresh()}>
          Refresh deliveries
        </ScriptButton>
      </p>
    </>
  );
}
