// Who may do what: the two roles, the scopes a credential can carry, and which scopes each role
// has. Browser-safe on purpose (no secrets, no database): the tokens and staff pages list them.

export const ROLES = ['admin', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = ['plants:read', 'plants:write', 'webhooks:manage', 'audit:read', 'metrics:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'plants:read': 'read plants (list, get, export)',
  'plants:write': 'add, change and delete plants',
  'webhooks:manage': 'manage webhook endpoints',
  'audit:read': 'read the activity log',
  'metrics:read': "read the server's metrics (GET /metrics, for Prometheus)",
};

/**
 * Staff keep the catalogue; admins also manage accounts and webhooks, read the activity log and
 * mint the metrics scraper's token.
 * A credential never does more than its account's role allows, whatever scopes it names.
 */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  admin: SCOPES,
  staff: ['plants:read', 'plants:write'],
};

/** What a new API token may do unless asked otherwise. */
export const DEFAULT_TOKEN_SCOPES: readonly Scope[] = ['plants:read', 'plants:write'];

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', staff: 'Staff' };

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Scopes as stored and carried in tokens: space-separated (as OAuth writes them), in SCOPES order. */
export function formatScopes(scopes: Iterable<Scope>): string {
  const wanted = new Set(scopes);
  return SCOPES.filter((scope) => wanted.has(scope)).join(' ');
}

/** The known scopes in a stored or carried scope string; unknown words are dropped. */
export function parseScopes(text: string | null | undefined): Scope[] {
  const named = new Set((text ?? '').split(/[\s,]+/));
  return SCOPES.filter((scope) => named.has(scope));
}

/** The scopes of `scopes` that `role` allows. */
export function scopesWithin(scopes: readonly Scope[], role: Role): Scope[] {
  return scopes.filter((scope) => ROLE_SCOPES[role].includes(scope));
}
