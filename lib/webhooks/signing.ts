// Standard Webhooks signatures (https://www.standardwebhooks.com), made with the reference
// implementation (the `standardwebhooks` package), so receivers can verify with any of its ports:
// `webhook-signature: v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`.
import 'server-only';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes, as the specification suggests. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The three headers of one attempt; the timestamp is the attempt's, so each retry is signed anew. */
export function signedHeaders(secret: string, messageId: string, payload: string, at = new Date()): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, payload),
  };
}
