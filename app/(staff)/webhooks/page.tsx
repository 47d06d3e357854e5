import type { Metadata } from 'next';
import type { EndpointView } from '@/components/webhooks/endpoint';
import { WebhookManager } from '@/components/webhooks/webhook-manager';
import { requireAdmin } from '@/lib/auth/sessions/current-staff';
import { eventsAwaitDelivery, listWebhookEndpoints, recentDeliveries } from '@/lib/webhooks/endpoints';
import { WEBHOOK_EVENT_TYPES } from '@/lib/webhooks/event-types';
import {
  createEndpointAction,
  deleteEndpointAction,
  resendDeliveryAction,
  rotateSecretAction,
  sendTestEventAction,
  setEndpointEnabledAction,
} from './actions';

export const metadata: Metadata = { title: 'Webhooks · Plant Store' };

const RECENT_DELIVERIES = 20;

export default async function WebhooksPage() {
  await requireAdmin('/webhooks');
  const endpoints = await listWebhookEndpoints();
  const views: EndpointView[] = await Promise.all(
    endpoints.map(async (endpoint) => ({
      id: endpoint.id,
      url: endpoint.url,
      events: endpoint.events,
      enabled: endpoint.enabled,
      createdAt: endpoint.createdAt.toISOString(),
      previousSecretSignsUntil: endpoint.previousSecretSignsUntil?.toISOString() ?? null,
      deliveries: (await recentDeliveries(endpoint.id, RECENT_DELIVERIES)).map((delivery) => ({
        id: delivery.id,
        eventType: delivery.eventType,
        messageId: delivery.messageId,
        plantId: delivery.plantId?.toString() ?? null,
        status: delivery.status,
        attempts: delivery.attempts,
        lastStatusCode: delivery.lastStatusCode,
        lastDurationMs: delivery.lastDurationMs,
        lastError: delivery.lastError,
        lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
        nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
      })),
    })),
  );
  // With no endpoint enabled nobody wakes the dispatcher, and changes' events may wait unread.
  const awaiting = endpoints.some((endpoint) => endpoint.enabled) && (await eventsAwaitDelivery());
  return (
    <WebhookManager
      endpoints={views}
      eventTypes={[...WEBHOOK_EVENT_TYPES]}
      eventsAwaitDelivery={awaiting}
      actions={{ createEndpointAction, setEndpointEnabledAction, sendTestEventAction, deleteEndpointAction, resendDeliveryAction, rotateSecretAction }}
    />
  );
}
