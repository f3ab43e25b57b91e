import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Standard Webhooks secrets: `whsec_` and the base64 of 32 random bytes. */
const SECRET_PREFIX = 'whsec_';

export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each
 * secret, space-separated (during a rotation both the new and the old secret sign, so a receiver
 * holding either verifies). Signed by the `standardwebhooks` package itself.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' ');
}
