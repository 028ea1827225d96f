/**
 * Pure parsers for what HTTP SMS gateways send back: delivery-status callbacks and their signatures,
 * plus the dot-path lookup the generic gateway uses to read ids, balances and statuses from JSON.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ChannelSettings, DeliveryReport } from './types.js';

/** Form fields as a body parser hands them over; repeated keys arrive as arrays. */
export type FormFields = Record<string, string | string[] | undefined>;

/** Reads `a.b.0.c` from parsed JSON; numeric segments index arrays. Undefined when any step is missing. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A scalar from a JSON answer as text ('' for objects and missing values), for ids and statuses. */
export function scalarText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

function toFields(formBody: string | URLSearchParams | FormFields): FormFields {
  if (typeof formBody !== 'string' && !(formBody instanceof URLSearchParams)) return formBody;
  const fields: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(formBody)) {
    const previous = fields[key];
    fields[key] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return fields;
}

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Twilio's status callback (form-encoded MessageSid, MessageStatus, ErrorCode…) as a receipt;
 * null when it names no message. Only final states are conclusive: queued/sent/accepted/sending stay unknown.
 */
export function parseTwilioStatusCallback(
  formBody: string | URLSearchParams | FormFields,
  at = Date.now(),
): DeliveryReport | null {
  const fields = toFields(formBody);
  const providerMessageId = first(fields.MessageSid) || first(fields.SmsSid);
  if (!providerMessageId) return null;
  const messageStatus = (first(fields.MessageStatus) || first(fields.SmsStatus)).toLowerCase();
  const errorCode = first(fields.ErrorCode);
  const status =
    messageStatus === 'delivered'
      ? 'delivered'
      : messageStatus === 'undelivered' || messageStatus === 'failed'
        ? 'undelivered'
        : 'unknown';
  const providerStatus = [messageStatus || 'no status', errorCode].filter(Boolean).join(' ');
  return { providerMessageId, status, providerStatus, at };
}

/**
 * Twilio's documented X-Twilio-Signature: base64 HMAC-SHA1, keyed by the auth token, of the full URL
 * followed by every POST parameter as name+value, sorted by name (repeated values sorted too).
 */
export function twilioSignature(authToken: string, url: string, params: FormFields): string {
  let data = url;
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    const values = Array.isArray(value) ? [...value].sort() : value === undefined ? [] : [value];
    for (const item of values) data += key + item;
  }
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** True when the header matches the signature Twilio would compute; compared in constant time. */
export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: string | URLSearchParams | FormFields,
  signatureHeader: string | undefined,
): boolean {
  if (!authToken || !signatureHeader) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, toFields(params)));
  const given = Buffer.from(signatureHeader);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Generic gateways' words for final states, matched case-insensitively (SMPP-style DELIVRD/UNDELIV included). */
const GENERIC_DELIVERED = new Set(['delivered', 'delivrd']);
const GENERIC_UNDELIVERED = new Set(['undelivered', 'undeliv', 'failed', 'rejected', 'expired']);

/**
 * A generic gateway's JSON status callback, read with the config's callbackIdPath/callbackStatusPath
 * (defaults 'id' and 'status'); null when the body names no message.
 */
export function parseGenericCallback(settings: ChannelSettings, jsonBody: unknown, at = Date.now()): DeliveryReport | null {
  const idPath = scalarText(settings.callbackIdPath) || 'id';
  const statusPath = scalarText(settings.callbackStatusPath) || 'status';
  const providerMessageId = scalarText(getPath(jsonBody, idPath));
  if (!providerMessageId) return null;
  const providerStatus = scalarText(getPath(jsonBody, statusPath));
  const word = providerStatus.toLowerCase();
  const status = GENERIC_DELIVERED.has(word) ? 'delivered' : GENERIC_UNDELIVERED.has(word) ? 'undelivered' : 'unknown';
  return { providerMessageId, status, providerStatus: providerStatus || 'no status', at };
}

/** SMS.ru status codes: 103 delivered, 110 read; 104–108 and 150 are final failures; the rest are still on the way. */
const SMSRU_DELIVERED = new Set(['103', '110']);
const SMSRU_UNDELIVERED = new Set(['104', '105', '106', '107', '108', '150']);

/**
 * SMS.ru's callback: form fields data[0], data[1]… each "sms_status\n<sms_id>\n<status_code>\n<unix time>"
 * (other event kinds are skipped). The endpoint must answer "100" or SMS.ru repeats the callback.
 */
export function parseSmsRuCallback(formBody: string | URLSearchParams | FormFields): DeliveryReport[] {
  const fields = toFields(formBody);
  const entries = Object.entries(fields)
    .filter(([key]) => /^data(\[\d*\])?$/.test(key))
    .flatMap(([, value]) => (Array.isArray(value) ? value : value === undefined ? [] : [value]));
  const reports: DeliveryReport[] = [];
  for (const entry of entries) {
    const [kind, providerMessageId, code, time] = entry.split('\n').map((line) => line.trim());
    if (kind !== 'sms_status' || !providerMessageId || !code) continue;
    const seconds = Number(time);
    reports.push({
      providerMessageId,
      status: SMSRU_DELIVERED.has(code) ? 'delivered' : SMSRU_UNDELIVERED.has(code) ? 'undelivered' : 'unknown',
      providerStatus: `sms.ru ${code}`,
      at: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : Date.now(),
    });
  }
  return reports;
}
