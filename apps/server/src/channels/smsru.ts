/**
 * SMS.ru (Russia and neighbours) over its HTTP API with json=1: sms/send per message, my/balance for
 * verify and balance. Delivery callbacks are configured in the SMS.ru dashboard and parsed in http-callbacks.ts.
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
  snippet,
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

export const SMSRU_DEFAULT_BASE_URL = 'https://sms.ru';
/** SMS.ru's "service temporarily unavailable" and "server error, repeat the request". */
const SMSRU_TRANSIENT_CODES = new Set(['220', '500']);
/** Wrong api_id, token or login: the credentials, not the message, are at fault. */
const SMSRU_AUTH_CODES = new Set(['200', '300', '301']);

interface SmsRuStatus {
  status?: unknown;
  status_code?: unknown;
  status_text?: unknown;
}

function describe(answer: SmsRuStatus): string {
  return [scalarText(answer.status_code), scalarText(answer.status_text)].filter(Boolean).join(' ') || 'ERROR';
}

function createSmsRu(settings: ChannelSettings): Channel {
  const apiId = settingText(settings, 'apiId');
  const from = settingText(settings, 'from');
  const test = settings.test === true || settings.test === 'true';
  const baseUrl = settingText(settings, 'baseUrl', SMSRU_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const configError = !apiId
    ? 'apiId is required'
    : !URL.canParse(baseUrl)
      ? `baseUrl is not a valid URL: ${baseUrl}`
      : undefined;

  /** POSTs the form so the api_id and the text never land in URLs and access logs. */
  function call(path: string, params: Record<string, string>, timeoutMs: number): Promise<HttpAnswer> {
    const body = new URLSearchParams({ api_id: apiId, ...params, json: '1' }).toString();
    return httpExchange(
      `${baseUrl}${path}`,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' }, body },
      timeoutMs,
    );
  }

  async function sendOne(sms: OutgoingSms): Promise<SendResult> {
    if (configError) return { id: sms.id, accepted: false, error: configError };
    const to = sms.to.replace(/^\+/, '');
    let answer: HttpAnswer;
    try {
      answer = await call(
        '/sms/send',
        { to, msg: sms.text, ...(from ? { from } : {}), ...(test ? { test: '1' } : {}) },
        SEND_TIMEOUT_MS,
      );
    } catch (error) {
      return { id: sms.id, accepted: false, transient: true, error: (error as Error).message };
    }
    const body = answer.json as (SmsRuStatus & { sms?: Record<string, SmsRuStatus & { sms_id?: unknown }> }) | undefined;
    if (!isSuccess(answer.status) || !body) {
      return { id: sms.id, accepted: false, transient: isTransientStatus(answer.status), error: httpFailure(answer) };
    }
    const failure = (status: SmsRuStatus): SendResult => ({
      id: sms.id,
      accepted: false,
      transient: SMSRU_TRANSIENT_CODES.has(scalarText(status.status_code)),
      error: describe(status),
    });
    // A request-level error (bad api_id, no money) comes without per-number entries.
    if (scalarText(body.status) !== 'OK') return failure(body);
    const entry = body.sms?.[to] ?? Object.values(body.sms ?? {})[0];
    if (!entry) return { id: sms.id, accepted: false, error: `no result for ${to} in ${snippet(answer.text)}` };
    if (scalarText(entry.status) !== 'OK') return failure(entry);
    const providerMessageId = scalarText(entry.sms_id);
    return { id: sms.id, accepted: true, ...(providerMessageId ? { providerMessageId } : {}) };
  }

  async function fetchBalance(timeoutMs: number): Promise<{ balance: number } | { error: string }> {
    const answer = await call('/my/balance', {}, timeoutMs);
    const body = answer.json as (SmsRuStatus & { balance?: unknown }) | undefined;
    if (!isSuccess(answer.status) || !body) return { error: httpFailure(answer) };
    if (scalarText(body.status) !== 'OK') {
      const auth = SMSRU_AUTH_CODES.has(scalarText(body.status_code));
      return { error: `${auth ? 'authentication failed: ' : ''}${describe(body)}` };
    }
    const balance = Number(body.balance);
    return Number.isFinite(balance) ? { balance } : { error: `no balance in ${snippet(answer.text)}` };
  }

  async function verify(): Promise<VerifyResult> {
    if (configError) return { ok: false, message: configError };
    try {
      const result = await fetchBalance(VERIFY_TIMEOUT_MS);
      return 'error' in result
        ? { ok: false, message: result.error }
        : { ok: true, message: `api_id accepted, balance ${result.balance} RUB` };
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }

  async function balance(): Promise<Balance | null> {
    if (configError) throw new Error(configError);
    const result = await fetchBalance(VERIFY_TIMEOUT_MS);
    if ('error' in result) throw new Error(`balance: ${result.error}`);
    return { amount: result.balance, currency: 'RUB' };
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

export const smsRuChannel: ChannelDefinition = {
  type: 'smsru',
  category: 'SMS',
  fields: [
    { name: 'apiId', label: 'providers.field.apiId', kind: 'secret', secret: true, required: true },
    { name: 'from', label: 'providers.field.from', kind: 'string' },
    { name: 'test', label: 'providers.field.test', kind: 'boolean', default: false },
    { name: 'baseUrl', label: 'providers.field.baseUrl', kind: 'url', default: SMSRU_DEFAULT_BASE_URL },
    PRICE_PER_PART_FIELD,
  ],
  create: (settings) => createSmsRu(settings),
};
