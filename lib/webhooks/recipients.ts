// Who gets a webhook event: the rule the dispatcher's fan-out applies (DeliveryStore.fanOut, on
// either engine, is given it).
import 'server-only';
import type { EndpointChoice, EventToFanOut } from '../db/stores';

/**
 * Who gets an event: a test event goes to its one endpoint; any other to every enabled endpoint
 * subscribed to its type that existed when it happened (an endpoint hears of changes made after
 * it was created, not before; a disabled one hears of none made while it is disabled).
 */
export function recipientsOf(event: EventToFanOut, endpoints: EndpointChoice[]): string[] {
  if (event.endpointId) return endpoints.some((endpoint) => endpoint.id === event.endpointId) ? [event.endpointId] : [];
  return endpoints
    .filter((endpoint) => endpoint.enabled && endpoint.createdAt <= event.createdAt && endpoint.events.split(',').includes(event.type))
    .map((endpoint) => endpoint.id);
}
