// The stored webhook secrets, read and rewritten as one pass at start (the rule of what to write is
// lib/webhooks/secrets-at-rest.ts's, passed in), by the engine's tools (engineTools(), lib/db/engine.ts):
// straight through each engine's driver, as the migrations' folding is, so the start loads no
// Prisma client ahead of the server's own.
import 'server-only';
import { engineTools } from './engine';
import type { SecretRewrite, StoredSecrets } from './stores';

export type { SecretRewrite, StoredSecrets };

/** Rewrites each endpoint's stored secrets as `rewrite` says, each row only if unchanged since read; answers how many it rewrote. */
export function rewriteWebhookSecrets(databaseUrl: string, rewrite: SecretRewrite): Promise<number> {
  return engineTools(databaseUrl).rewriteWebhookSecrets(databaseUrl, rewrite);
}
