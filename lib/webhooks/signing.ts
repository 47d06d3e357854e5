// Standard Webhooks signatures (https://www.standardwebhooks.com), made with the reference
// implementation (the `standardwebhooks` package), so receivers can verify with any of its ports:
// `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`.
// During a rotation's grace period the header carries one signature per secret, newest first,
// separated by a space, as the specification allows: a receiver's verify accepts any one of them,
// so it passes with the secret before and with the new one alike.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes, as the specification suggests. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The three headers of one attempt, signed with each of `secrets` (newest first); the timestamp is
 * the attempt's, so each retry is signed anew.
 */
export function signedHeaders(secrets: readonly string[], messageId: string, payload: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, at, payload)).join(' '),
  };
}
