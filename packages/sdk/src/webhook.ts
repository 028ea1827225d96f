/**
 * Checks the X-Herald-Signature header of a webhook call: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
 * Web Crypto only, so it runs the same in Node 20+, browsers and edge runtimes.
 */

/** What Herald posts to the account's webhook URL: a message's status change, or the console's test event. */
export type WebhookEvent = MessageStatusEvent | WebhookTestEvent;

export interface WebhookTestEvent {
  type: 'webhook.test';
  at: string;
}

export interface MessageStatusEvent {
  type: 'message.status';
  messageId: number;
  status: string;
  previousStatus: string | null;
  channel: 'email' | 'sms';
  to: string;
  at: string;
  detail: string | null;
}

export const SIGNATURE_HEADER = 'X-Herald-Signature';
export const EVENT_ID_HEADER = 'X-Herald-Event-Id';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

interface ParsedSignature {
  timestamp: number;
  signatures: Uint8Array<ArrayBuffer>[];
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
  return bytes;
}

function parseSignatureHeader(header: string): ParsedSignature | undefined {
  let timestamp: number | undefined;
  const signatures: Uint8Array<ArrayBuffer>[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (name === 'v1') {
      const bytes = hexToBytes(value);
      if (bytes?.length === 32) signatures.push(bytes);
    }
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

function signedPayload(timestamp: number, rawBody: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody;
  const payload = new Uint8Array(prefix.length + body.length);
  payload.set(prefix, 0);
  payload.set(body, prefix.length);
  return payload;
}

/**
 * True when the header carries a valid signature of exactly these body bytes under `secret`, made no more than
 * `toleranceSeconds` from now (which stops a captured call from being replayed later). Pass the body exactly as
 * received, before any JSON parsing. Comparison is constant-time (Web Crypto's HMAC verify).
 */
export async function verifyWebhook(
  secret: string,
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
  now: number = Date.now(),
): Promise<boolean> {
  if (!secret || !signatureHeader) return false;
  const parsed = parseSignatureHeader(signatureHeader);
  if (!parsed) return false;
  if (Math.abs(now / 1000 - parsed.timestamp) > toleranceSeconds) return false;
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  const payload = signedPayload(parsed.timestamp, rawBody);
  for (const signature of parsed.signatures) {
    if (await globalThis.crypto.subtle.verify('HMAC', key, signature, payload)) return true;
  }
  return false;
}
