'use server';
// Webhook endpoints: admins only. Server actions are public endpoints, so each one checks the
// caller's role itself (a refusal is logged). Every change goes through lib/webhooks/endpoints.ts,
// which records it.
import { revalidatePath } from 'next/cache';
import { incomingRequest, staffContext, type ChangeContext } from '@/lib/audit/context';
import { actionCaller } from '@/lib/auth/staff';
import { ApiError } from '@/lib/http/errors';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  resendDelivery,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from '@/lib/webhooks/endpoints';

export type CreateEndpointState =
  | { kind: 'idle' }
  | { kind: 'created'; url: string; secret: string }
  | { kind: 'error'; message: string };

export type ActionOutcome = { ok: boolean; message?: string };

/** Runs a change as the signed-in admin; a refusal of the input comes back as its message. */
async function asAdmin(action: string, change: (context: ChangeContext) => Promise<unknown>): Promise<ActionOutcome> {
  const { ok, staff, refusal } = await actionCaller(action, 'admin');
  if (!ok) return { ok: false, message: refusal };
  try {
    await change(staffContext(staff, await incomingRequest()));
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: error.message };
    throw error;
  }
  revalidatePath('/webhooks');
  return { ok: true };
}

export async function createEndpointAction(_previous: CreateEndpointState, form: FormData): Promise<CreateEndpointState> {
  const url = String(form.get('url') ?? '');
  const events = form.getAll('events').map(String);
  let created: { url: string; secret: string } | undefined;
  const outcome = await asAdmin('createEndpoint', async (context) => {
    if (events.length === 0) throw new ApiError('validation_failed', 'events: choose at least one event');
    const { endpoint, secret } = await createWebhookEndpoint({ url, events }, context);
    created = { url: endpoint.url, secret };
  });
  return created ? { kind: 'created', ...created } : { kind: 'error', message: outcome.message ?? 'The endpoint was not created.' };
}

export async function setEndpointEnabledAction(id: string, enabled: boolean): Promise<ActionOutcome> {
  return asAdmin('setEndpointEnabled', (context) => setWebhookEndpointEnabled(String(id), Boolean(enabled), context));
}

export async function sendTestEventAction(id: string): Promise<ActionOutcome> {
  return asAdmin('sendTestEvent', (context) => sendTestEvent(String(id), context));
}

export async function deleteEndpointAction(id: string): Promise<ActionOutcome> {
  return asAdmin('deleteEndpoint', (context) => deleteWebhookEndpoint(String(id), context));
}

export async function resendDeliveryAction(id: string): Promise<ActionOutcome> {
  return asAdmin('resendDelivery', (context) => resendDelivery(String(id), context));
}
