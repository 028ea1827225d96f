/**
 * Twilio Programmable Messaging over its REST API (2010-04-01): form-encoded Message creation,
 * Basic auth by Account SID + Auth Token or API key + secret, status callbacks parsed in http-callbacks.ts.
 */

import {
  type HttpAnswer,
  httpExchange,
  httpFailure,
  isSuccess,
  isTransientStatus,
  SEND_CONCURRENCY,
  SEND_TIMEOUT_MS,
  sendSmsBatch,
  settingText,
} from './http.js';
import { scalarText } from './http-callbacks.js';
import {
  type Balance,
  type Channel,
  type ChannelDefinition,
  type ChannelSettings,
  type OutgoingSms,
  PRICE_PER_PART_FIELD,
  type SendResult,
  VERIFY_TIMEOUT_MS,
  type VerifyResult,
} from './types.js';

export const TWILIO_DEFAULT_BASE_URL = 'https://api.twilio.com';

/** Twilio's error body {code, message, more_info, status} as "21211 Invalid 'To' Phone Number". */
function twilioError(answer: HttpAnswer): string {
  const body = (answer.json ?? {}) as { code?: unknown; message?: unknown; detail?: unknown };
  const code = scalarText(body.code);
  const message = scalarText(body.message);
  if (!code && !message) return httpFailure(answer);
  const detail = scalarText(body.detail);
  return [code, message].filter(Boolean).join(' ') + (detail ? ` (${detail})` : '');
}

function createTwilio(settings: ChannelSettings): Channel {
  const accountSid = settingText(settings, 'accountSid');
  const authToken = settingText(settings, 'authToken');
  const apiKey = settingText(settings, 'apiKey');
  const apiSecret = settingText(settings, 'apiSecret');
  const from = settingText(settings, 'from');
  const messagingServiceSid = settingText(settings, 'messagingServiceSid');
  const statusCallbackUrl = settingText(settings, 'statusCallbackUrl');
  const baseUrl = settingText(settings, 'baseUrl', TWILIO_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const accountUrl = `${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}`;
  const credentials = apiKey && apiSecret ? `${apiKey}:${apiSecret}` : `${accountSid}:${authToken}`;
  const authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;

  const configError = ((): string | undefined => {
    if (!accountSid) return 'accountSid is required';
    if (Boolean(apiKey) !== Boolean(apiSecret)) return 'apiKey and apiSecret go together';
    if (!authToken && !apiKey) return 'authToken (or apiKey and apiSecret) is required';
    if (!from && !messagingServiceSid) return 'from or messagingServiceSid is required';
    if (!URL.canParse(baseUrl)) return `baseUrl is not a valid URL: ${baseUrl}`;
    return undefined;
  })();

  const headers = { Authorization: authorization, Accept: 'application/json' };

  async function sendOne(sms: OutgoingSms): Promise<SendResult> {
    if (configError) return { id: sms.id, accepted: false, error: configError };
    const form = new URLSearchParams({ To: sms.to, Body: sms.text });
    if (messagingServiceSid) form.set('MessagingServiceSid', messagingServiceSid);
    if (from) form.set('From', from);
    if (statusCallbackUrl) form.set('StatusCallback', statusCallbackUrl);
    let answer: HttpAnswer;
    try {
      answer = await httpExchange(
        `${accountUrl}/Messages.json`,
        { method: 'POST', headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() },
        SEND_TIMEOUT_MS,
      );
    } catch (error) {
      return { id: sms.id, accepted: false, transient: true, error: (error as Error).message };
    }
    if (!isSuccess(answer.status)) {
      return { id: sms.id, accepted: false, transient: isTransientStatus(answer.status), error: twilioError(answer) };
    }
    const message = (answer.json ?? {}) as { sid?: unknown; num_segments?: unknown };
    const providerMessageId = scalarText(message.sid);
    const parts = Number(message.num_segments);
    return {
      id: sms.id,
      accepted: true,
      ...(providerMessageId ? { providerMessageId } : {}),
      ...(Number.isInteger(parts) && parts > 0 ? { parts } : {}),
    };
  }

  async function verify(): Promise<VerifyResult> {
    if (configError) return { ok: false, message: configError };
    let answer: HttpAnswer;
    try {
      answer = await httpExchange(`${accountUrl}.json`, { method: 'GET', headers }, VERIFY_TIMEOUT_MS);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    if (answer.status === 401 || answer.status === 403)
      return { ok: false, message: `authentication failed: ${twilioError(answer)}` };
    if (!isSuccess(answer.status)) return { ok: false, message: twilioError(answer) };
    const account = (answer.json ?? {}) as { friendly_name?: unknown; status?: unknown; type?: unknown };
    const status = scalarText(account.status);
    const name = scalarText(account.friendly_name) || accountSid;
    if (status && status !== 'active') return { ok: false, message: `account "${name}" is ${status}` };
    return { ok: true, message: `account "${name}" is active${account.type ? ` (${scalarText(account.type)})` : ''}` };
  }

  async function balance(): Promise<Balance | null> {
    if (configError) throw new Error(configError);
    const answer = await httpExchange(`${accountUrl}/Balance.json`, { method: 'GET', headers }, VERIFY_TIMEOUT_MS);
    if (!isSuccess(answer.status)) throw new Error(`balance: ${twilioError(answer)}`);
    const body = (answer.json ?? {}) as { balance?: unknown; currency?: unknown };
    const amount = Number(body.balance);
    // Subaccounts carry no balance of their own.
    if (body.balance === undefined || body.balance === null || !Number.isFinite(amount)) return null;
    return { amount, currency: scalarText(body.currency) };
  }

  return {
    parallelism: SEND_CONCURRENCY,
    send: (messages) => sendSmsBatch(messages, sendOne),
    verify,
    balance,
    // fetch pools connections globally; the channel holds nothing of its own to release.
    close: async () => {},
  };
}

export const twilioChannel: ChannelDefinition = {
  type: 'twilio',
  category: 'SMS',
  fields: [
    { name: 'accountSid', label: 'providers.field.accountSid', kind: 'string', required: true },
    { name: 'authToken', label: 'providers.field.authToken', kind: 'secret', secret: true, required: true },
    { name: 'apiKey', label: 'providers.field.apiKey', kind: 'string' },
    { name: 'apiSecret', label: 'providers.field.apiSecret', kind: 'secret', secret: true },
    // Either a sender or a Messaging Service is needed; the form cannot express "one of", send and verify check it.
    { name: 'from', label: 'providers.field.from', kind: 'string' },
    { name: 'messagingServiceSid', label: 'providers.field.messagingServiceSid', kind: 'string' },
    { name: 'statusCallbackUrl', label: 'providers.field.statusCallbackUrl', kind: 'url' },
    { name: 'baseUrl', label: 'providers.field.baseUrl', kind: 'url', default: TWILIO_DEFAULT_BASE_URL },
    PRICE_PER_PART_FIELD,
  ],
  create: (settings) => createTwilio(settings),
};
