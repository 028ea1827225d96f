/** Herald's TypeScript SDK: a typed client of the public sending API; works in Node 20+ and browsers (global fetch). */
export {
  type CallOptions,
  type FieldFault,
  HeraldClient,
  type HeraldClientOptions,
  HeraldError,
  type RequestOptions,
  type SendOptions,
} from './client.js';
export type * from './generated/api.js';
export { newIdempotencyKey } from './idempotency.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  EVENT_ID_HEADER,
  type MessageStatusEvent,
  SIGNATURE_HEADER,
  verifyWebhook,
  type WebhookEvent,
  type WebhookTestEvent,
} from './webhook.js';
