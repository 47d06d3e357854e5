// What the webhooks page hands its manager: the page's server actions
// (app/(staff)/webhooks/actions.ts defines them), and what each answers. The page passes them in,
// so no component imports app/.
import type { ActionOutcome } from '../confirm-action';

export type CreateEndpointState =
  | { kind: 'idle' }
  | { kind: 'created'; url: string; secret: string }
  | { kind: 'error'; message: string };

/** A rotation: the new secret, shown once, and until when the one before still signs (ISO; null: it no longer does). */
export type RotateSecretOutcome = { ok: true; secret: string; previousSecretSignsUntil: string | null } | { ok: false; message: string };

export type WebhookActions = {
  createEndpointAction: (state: CreateEndpointState, form: FormData) => Promise<CreateEndpointState>;
  setEndpointEnabledAction: (id: string, enabled: boolean) => Promise<ActionOutcome>;
  sendTestEventAction: (id: string) => Promise<ActionOutcome>;
  deleteEndpointAction: (id: string) => Promise<ActionOutcome>;
  resendDeliveryAction: (deliveryId: string) => Promise<ActionOutcome>;
  rotateSecretAction: (id: string) => Promise<RotateSecretOutcome>;
};
