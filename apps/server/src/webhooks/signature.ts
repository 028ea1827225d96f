/** The X-Herald-Signature header: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> under the account's secret. */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Herald-Signature';
export const EVENT_ID_HEADER = 'X-Herald-Event-Id';

/** whsec_ and 43 url-safe random characters (256 bits). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function signatureHeader(secret: string, rawBody: string, unixSeconds = Math.floor(Date.now() / 1000)): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}
