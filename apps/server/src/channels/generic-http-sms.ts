/**
 * A user-configured JSON SMS gateway: the config supplies the URL, the auth header, a JSON body template
 * and dot paths to the id and balance in the answers.
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
  target,
} from './http.js';
import { getPath, scalarText } from './http-callbacks.js';
import {
  type Balance,
  type Channel,
  type ChannelContext,
  type ChannelDefinition,
  type ChannelSettings,
  type OutgoingSms,
  PRICE_PER_PART_FIELD,
  type SendResult,
  VERIFY_TIMEOUT_MS,
  type VerifyResult,
} from './types.js';

export const DEFAULT_BODY_TEMPLATE = '{"to":"{{to}}","text":"{{text}}","sender":"{{sender}}"}';
const METHODS = ['POST', 'PUT', 'GET'] as const;
type Method = (typeof METHODS)[number];
type TemplateVariables = Record<'to' | 'text' | 'sender' | 'clientId' | 'id', string>;
/** RFC 9110 token characters; anything else makes fetch throw before the request leaves. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PLACEHOLDER = /\{\{(to|text|sender|clientId|id)\}\}/g;

/** One pass, so placeholders inside the substituted values (e.g. a text reading "{{to}}") stay literal. */
function fillPlaceholders(value: string, variables: TemplateVariables, encode: (raw: string) => string): string {
  return value.replace(PLACEHOLDER, (_, name: keyof TemplateVariables) => encode(variables[name]));
}

/** Substitutes inside the parsed template's strings; JSON.stringify then escapes, so no text can break out of its string. */
export function renderTemplate(template: unknown, variables: TemplateVariables): unknown {
  if (typeof template === 'string') return fillPlaceholders(template, variables, (raw) => raw);
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, variables));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, item]) => [key, renderTemplate(item, variables)]));
  }
  return template;
}

function parseTemplate(raw: unknown): { template: unknown } | { error: string } {
  if (raw !== undefined && raw !== null && typeof raw === 'object') return { template: raw };
  const text = raw === undefined || raw === null || raw === '' ? DEFAULT_BODY_TEMPLATE : String(raw);
  try {
    return { template: JSON.parse(text) };
  } catch (error) {
    return { error: `bodyTemplate is not valid JSON: ${(error as Error).message}` };
  }
}

function createGenericHttpSms(settings: ChannelSettings, context: ChannelContext): Channel {
  const url = settingText(settings, 'url');
  const method = settingText(settings, 'method', 'POST').toUpperCase() as Method;
  const authHeaderName = settingText(settings, 'authHeaderName', 'Authorization');
  const authHeaderValue = settingText(settings, 'authHeaderValue');
  const sender = settingText(settings, 'sender');
  const clientId = settingText(settings, 'clientId');
  const messageIdPath = settingText(settings, 'messageIdPath', 'id');
  const balanceUrl = settingText(settings, 'balanceUrl');
  const balancePath = settingText(settings, 'balancePath', 'balance');
  const balanceCurrencyPath = settingText(settings, 'balanceCurrencyPath', 'currency');
  const verifyUrl = settingText(settings, 'verifyUrl');
  const parsed = parseTemplate(settings.bodyTemplate);
  /** The send URL with no message in it, for validation and the HEAD fallback of verify. */
  const probeUrl = fillPlaceholders(url, { to: '', text: '', sender, clientId, id: '' }, encodeURIComponent);

  const configError = ((): string | undefined => {
    if (!url) return 'url is required';
    if (!URL.canParse(probeUrl)) return `url is not a valid URL: ${url}`;
    if (!METHODS.includes(method)) return `method must be one of ${METHODS.join(', ')}`;
    if (!HEADER_NAME.test(authHeaderName)) return `authHeaderName is not a valid header name: ${authHeaderName}`;
    return 'error' in parsed ? parsed.error : undefined;
  })();

  function headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Accept: 'application/json', ...(authHeaderValue ? { [authHeaderName]: authHeaderValue } : {}), ...extra };
  }

  async function sendOne(sms: OutgoingSms): Promise<SendResult> {
    if ('error' in parsed) return { id: sms.id, accepted: false, error: parsed.error };
    if (configError) return { id: sms.id, accepted: false, error: configError };
    const variables = { to: sms.to, text: sms.text, sender, clientId, id: String(sms.id) };
    const body = renderTemplate(parsed.template, variables);
    let requestUrl = fillPlaceholders(url, variables, encodeURIComponent);
    const init: RequestInit = { method };
    if (method === 'GET') {
      // GET gateways take the template's top-level fields as query parameters.
      const query = new URL(requestUrl);
      if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
        for (const [key, value] of Object.entries(body)) {
          query.searchParams.set(key, typeof value === 'string' ? value : JSON.stringify(value));
        }
      }
      requestUrl = query.toString();
      init.headers = headers();
    } else {
      init.headers = headers({ 'Content-Type': 'application/json; charset=utf-8' });
      init.body = JSON.stringify(body);
    }
    let answer: HttpAnswer;
    try {
      answer = await httpExchange(requestUrl, init, SEND_TIMEOUT_MS);
    } catch (error) {
      return { id: sms.id, accepted: false, transient: true, error: (error as Error).message };
    }
    if (!isSuccess(answer.status)) {
      return { id: sms.id, accepted: false, transient: isTransientStatus(answer.status), error: httpFailure(answer) };
    }
    const providerMessageId = scalarText(getPath(answer.json, messageIdPath));
    if (!providerMessageId)
      context.log?.warn({ messageIdPath, answer: snippet(answer.text) }, 'http-sms: no message id in the answer');
    return { id: sms.id, accepted: true, ...(providerMessageId ? { providerMessageId } : {}) };
  }

  async function verify(): Promise<VerifyResult> {
    if (configError) return { ok: false, message: configError };
    const checkUrl = verifyUrl || balanceUrl;
    if (checkUrl) {
      let answer: HttpAnswer;
      try {
        answer = await httpExchange(checkUrl, { method: 'GET', headers: headers() }, VERIFY_TIMEOUT_MS);
      } catch (error) {
        return { ok: false, message: (error as Error).message };
      }
      const detail = `HTTP ${answer.status} from ${target('GET', checkUrl)}${answer.text ? `: ${snippet(answer.text)}` : ''}`;
      if (isSuccess(answer.status)) return { ok: true, message: detail };
      if (answer.status === 401 || answer.status === 403) return { ok: false, message: `authentication failed: ${detail}` };
      return { ok: false, message: detail };
    }
    // Without a check URL only reachability can be proven: a 405 to HEAD still means the gateway answers.
    let answer: HttpAnswer;
    try {
      answer = await httpExchange(probeUrl, { method: 'HEAD', headers: headers() }, VERIFY_TIMEOUT_MS);
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    const detail = `HTTP ${answer.status} from ${target('HEAD', probeUrl)}`;
    if (answer.status === 401 || answer.status === 403) return { ok: false, message: `authentication failed: ${detail}` };
    if (answer.status >= 500) return { ok: false, message: detail };
    return { ok: true, message: `reachable (${detail}); set verifyUrl or balanceUrl to check the credentials` };
  }

  async function balance(): Promise<Balance | null> {
    if (!balanceUrl) return null;
    const answer = await httpExchange(balanceUrl, { method: 'GET', headers: headers() }, VERIFY_TIMEOUT_MS);
    if (!isSuccess(answer.status)) throw new Error(`balance: HTTP ${answer.status} from ${target('GET', balanceUrl)}`);
    const raw = getPath(answer.json, balancePath);
    const amount = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() ? Number(raw) : Number.NaN;
    if (!Number.isFinite(amount)) throw new Error(`balance: no number at "${balancePath}" in ${snippet(answer.text)}`);
    return { amount, currency: scalarText(getPath(answer.json, balanceCurrencyPath)) };
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

export const genericHttpSmsChannel: ChannelDefinition = {
  type: 'http-sms',
  category: 'SMS',
  fields: [
    { name: 'url', label: 'providers.field.url', kind: 'url', required: true },
    { name: 'method', label: 'providers.field.method', kind: 'select', options: METHODS, default: 'POST' },
    { name: 'authHeaderName', label: 'providers.field.authHeaderName', kind: 'string', default: 'Authorization' },
    { name: 'authHeaderValue', label: 'providers.field.authHeaderValue', kind: 'secret', secret: true },
    { name: 'clientId', label: 'providers.field.clientId', kind: 'string' },
    { name: 'bodyTemplate', label: 'providers.field.bodyTemplate', kind: 'json', default: DEFAULT_BODY_TEMPLATE },
    { name: 'sender', label: 'providers.field.sender', kind: 'string' },
    { name: 'messageIdPath', label: 'providers.field.messageIdPath', kind: 'string', default: 'id' },
    { name: 'balanceUrl', label: 'providers.field.balanceUrl', kind: 'url' },
    { name: 'balancePath', label: 'providers.field.balancePath', kind: 'string', default: 'balance' },
    { name: 'balanceCurrencyPath', label: 'providers.field.balanceCurrencyPath', kind: 'string', default: 'currency' },
    { name: 'verifyUrl', label: 'providers.field.verifyUrl', kind: 'url' },
    { name: 'callbackStatusPath', label: 'providers.field.callbackStatusPath', kind: 'string', default: 'status' },
    { name: 'callbackIdPath', label: 'providers.field.callbackIdPath', kind: 'string', default: 'id' },
    PRICE_PER_PART_FIELD,
  ],
  create: createGenericHttpSms,
};
