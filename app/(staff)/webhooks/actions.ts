'use server';
// Webhook endpoints: admins only. Server actions are public endpoints, so each is defined through
// serverAction(), which checks the caller's role and the arguments first (a refusal is logged).
// Every change goes through lib/webhooks/endpoints.ts, which records it.
import { revalidatePath } from 'next/cache';
import { z } from 'zod';
import { formArguments, serverAction } from '@/lib/auth/server-action';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from '@/lib/webhooks/endpoints';
import type { ActionOutcome } from '@/components/confirm-action';
import type { CreateEndpointState, RotateSecretOutcome } from '@/components/webhooks/webhook-actions';

// The URL's rules are the service's (an ApiError, whose message is shown).
const NewEndpoint = z.object({
  url: z.string(),
  events: z.array(z.string()).min(1, { error: 'choose at least one event' }),
});

export const createEndpointAction = serverAction({
  name: 'createEndpoint',
  role: 'admin',
  args: formArguments((form) => ({ url: form.get('url') ?? '', events: form.getAll('events') }), NewEndpoint),
  refuse: (message): CreateEndpointState => ({ kind: 'error', message }),
  async run([, endpoint], { context }): Promise<CreateEndpointState> {
    const { endpoint: created, secret } = await createWebhookEndpoint(endpoint, context);
    revalidatePath('/webhooks');
    return { kind: 'created', url: created.url, secret };
  },
});

const refuseChange = (message: string): ActionOutcome => ({ ok: false, message });

/** The answer to a change made: the page shows the endpoints as they are now. */
function changed(): ActionOutcome {
  revalidatePath('/webhooks');
  return { ok: true };
}

export const setEndpointEnabledAction = serverAction({
  name: 'setEndpointEnabled',
  role: 'admin',
  args: z.tuple([z.string(), z.boolean()]),
  refuse: refuseChange,
  async run([id, enabled], { context }) {
    await setWebhookEndpointEnabled(id, enabled, context);
    return changed();
  },
});

export const sendTestEventAction = serverAction({
  name: 'sendTestEvent',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    await sendTestEvent(id, context);
    return changed();
  },
});

export const deleteEndpointAction = serverAction({
  name: 'deleteEndpoint',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    await deleteWebhookEndpoint(id, context);
    return changed();
  },
});

export const resendDeliveryAction = serverAction({
  name: 'resendDelivery',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: refuseChange,
  async run([id], { context }) {
    await resendDelivery(id, context);
    return changed();
  },
});

export const rotateSecretAction = serverAction({
  name: 'rotateSecret',
  role: 'admin',
  args: z.tuple([z.string()]),
  refuse: (message): RotateSecretOutcome => ({ ok: false, message }),
  async run([id], { context }): Promise<RotateSecretOutcome> {
    const { secret, previousSecretSignsUntil } = await rotateWebhookSecret(id, context);
    revalidatePath('/webhooks');
    return { ok: true, secret, previousSecretSignsUntil: previousSecretSignsUntil?.toISOString() ?? null };
  },
});
