// What the audit trail records. Browser-safe: the activity page's filter lists these.
export const AUDIT_ACTIONS = [
  'plant.created',
  'plant.updated',
  'plant.deleted',
  'token.created',
  'token.revoked',
  'webhook.created',
  'webhook.enabled',
  'webhook.disabled',
  'webhook.deleted',
  'webhook.test_sent',
  'webhook.delivery_resent',
  'webhook.secret_rotated',
  'staff.created',
  'staff.disabled',
  'staff.enabled',
  'staff.role_changed',
  'staff.password_reset',
  'staff.password_link_emailed',
  'staff.password_set',
  'staff.password_changed',
  'staff.signed_in',
  'staff.sign_in_failed',
  'staff.signed_out',
  'staff.signed_out_everywhere',
  'staff.second_factor_enrolled',
  'staff.second_factor_removed',
  'staff.second_factor_reset',
  'staff.recovery_code_used',
  'setting.changed',
  'backup.downloaded',
  'backup.restored',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What a record is about: `plant:9007199254740993`, `token:tok_...`, `webhook:wh_...`, `staff:usr_...`, `backup:plants-....db`, `setting:second-factor-required` (a store setting's key, lib/auth/store-settings.ts). */
export const AUDIT_TARGET_TYPES = ['plant', 'token', 'webhook', 'staff', 'backup', 'setting'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/**
 * Who made a change: an API token (its id and name), a staff member (id and email; the id is
 * absent for a failed sign-in with an email no account has), or the system itself (an operator
 * command, the server's own maintenance).
 */
export type Actor =
  | { type: 'token'; id: string; name: string }
  | { type: 'staff'; id?: string; name: string }
  | { type: 'system'; name: string };
