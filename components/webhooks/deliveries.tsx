// An endpoint's recent deliveries: each event, how its attempts went, and Resend for a failed one.
import { DataTable, TimeCell } from '../data-table';
import { ActionButton } from './action-button';
import type { WebhookActions } from './webhook-actions';

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

function statusLabel(delivery: DeliveryView): string {
  if (delivery.status === 'pending') return delivery.attempts > 0 ? 'Retrying' : 'Waiting';
  return { delivering: 'Sending', succeeded: 'Delivered', failed: 'Failed' }[delivery.status];
}

/** The deliveries to the endpoint at `url`, newest first. */
export function Deliveries({ url, deliveries, resendDeliveryAction }: { url: string; deliveries: DeliveryView[]; resendDeliveryAction: WebhookActions['resendDeliveryAction'] }) {
  if (deliveries.length === 0) return <p className="muted">No deliveries yet. Send a test event to try it.</p>;
  return (
    <DataTable caption={`Recent deliveries to ${url}`} className="many-columns" columns={['Event', 'Status', 'Attempt', 'Answer', 'Duration', 'Next retry', { hidden: 'Actions' }]}>
      {deliveries.map((delivery) => (
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
          <TimeCell iso={delivery.nextAttemptAt} precision="second" />
          <td>
            {delivery.status === 'failed' && (
              <ActionButton label="Resend" name={`Resend ${delivery.eventType} ${delivery.messageId}`} run={() => resendDeliveryAction(delivery.id)} />
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
