// The start's pass over the stored signing secrets (scripts/start.ts, and npm run db:migrate): a
// secret kept as it is, by a version before the encryption or in a database restored from its
// backup, is sealed; one sealed under AUTH_SECRET_PREVIOUS is sealed again under AUTH_SECRET. Until
// then each still signs (secret-cipher.ts opens both), so a store is never without its webhooks.
// Secrets that no key opens are named, and left as they are.
import 'server-only';
import { rewriteWebhookSecrets } from '../db/webhook-secret-rows';
import { operatorCommand } from '../shared/operator-commands';
import { configuredKeys, resealed, UnreadableSecretError } from './secret-cipher';

export type SealedSecrets = {
  /** Endpoints whose stored secrets were rewritten. */
  sealed: number;
  /** Endpoints whose secret no configured key opens: they cannot sign until rotated, or until AUTH_SECRET_PREVIOUS opens them. */
  unreadable: string[];
};

/** Whether `error` is the one a secret that does not open throws (anything else is a fault). */
function unreadable(error: unknown): true {
  if (error instanceof UnreadableSecretError) return true;
  throw error;
}

/** Seals, under AUTH_SECRET, every stored secret that is not yet sealed under it. */
export async function sealStoredSecrets(databaseUrl: string): Promise<SealedSecrets> {
  const keys = configuredKeys();
  const unreadableIds: string[] = [];
  const sealed = await rewriteWebhookSecrets(databaseUrl, (row) => {
    let secret: string | null;
    try {
      secret = resealed(row.secret, keys);
    } catch (error) {
      unreadable(error);
      unreadableIds.push(row.id);
      return null;
    }
    let previousSecret = row.previousSecret;
    if (row.previousSecret !== null) {
      try {
        previousSecret = resealed(row.previousSecret, keys) ?? row.previousSecret;
      } catch (error) {
        // It could not sign beside the new one anyway.
        if (unreadable(error)) previousSecret = null;
      }
    }
    return secret === null && previousSecret === row.previousSecret ? null : { secret: secret ?? row.secret, previousSecret };
  });
  return { sealed, unreadable: unreadableIds };
}

/** What the start (and npm run db:migrate) tells the operator of a pass: a line, a warning, either or neither. */
export function sealedReport({ sealed, unreadable }: SealedSecrets): { line: string | null; warning: string | null } {
  return {
    line: sealed > 0 ? `encrypted the signing secrets of ${sealed} webhook endpoint${sealed === 1 ? '' : 's'} under AUTH_SECRET` : null,
    warning:
      unreadable.length > 0
        ? `the signing secrets of webhook endpoints ${unreadable.join(', ')} cannot be decrypted with AUTH_SECRET or AUTH_SECRET_PREVIOUS, ` +
          `so their deliveries fail: set AUTH_SECRET_PREVIOUS to the AUTH_SECRET they were encrypted under, or rotate them (${operatorCommand('webhook', 'rotate-secret ID')})`
        : null,
  };
}
