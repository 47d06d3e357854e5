// The events a webhook endpoint can subscribe to. Browser-safe: the webhooks page offers them.
export const WEBHOOK_EVENT_TYPES = ['plant.created', 'plant.updated', 'plant.deleted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by "Send test event" to one endpoint only; never fanned out. */
export const TEST_EVENT_TYPE = 'webhook.test';
