/**
 * A loopback stand-in for Twilio's REST API 2010-04-01, answering with the documented shapes:
 * Messages.json (201 Message resource, 21211/21602/21603 errors), Accounts/{sid}.json, Balance.json,
 * 20003/401 on bad Basic auth, and signed status callbacks (X-Twilio-Signature) to the message's StatusCallback.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeTwilioMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  numSegments: number;
  /** The user half of the Basic credentials: the Account SID or an API key SID. */
  authUser: string;
}

export interface FakeTwilioOptions {
  accountSid?: string;
  authToken?: string;
  /** API key SID → secret, the alternative credentials. */
  apiKeys?: Record<string, string>;
  balance?: string;
  currency?: string;
}

export interface FakeTwilio {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  messages: FakeTwilioMessage[];
  /** Every request seen, for concurrency checks. */
  requestCount: number;
  maxInFlight: number;
  /** The next `count` Messages.json requests answer this status (429 or 500) instead of sending. */
  failNext(status: 429 | 500, count?: number): void;
  /** Delays every answer, so concurrent requests overlap. */
  delayMs: number;
  /** Never answers any request (for timeouts). */
  hang: boolean;
  /** POSTs a status callback for a recorded message; `tamper` alters a parameter after signing. */
  sendStatusCallback(
    sid: string,
    status: string,
    options?: { errorCode?: string; url?: string; tamper?: boolean },
  ): Promise<{ status: number }>;
  close(): Promise<void>;
}

const E164 = /^\+[1-9]\d{1,14}$/;
const GSM_BASIC = /^[A-Za-z0-9 \r\n@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&'()*+,\-./:;<=>?¡ÄÖÑÜ§¿äöñüà]*$/;

/** Twilio bills GSM-7 text in 153-character parts and UCS-2 text in 67-character parts once it needs more than one. */
function segments(text: string): number {
  const [single, multi] = GSM_BASIC.test(text) ? [160, 153] : [70, 67];
  return text.length <= single ? 1 : Math.ceil(text.length / multi);
}

function sid(prefix: string): string {
  return prefix + randomBytes(16).toString('hex');
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

function twilioError(response: ServerResponse, status: number, code: number, message: string, extra: object = {}): void {
  sendJson(response, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status, ...extra });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function signature(authToken: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, key) => acc + key + params[key], url);
  return createHmac('sha1', authToken).update(data).digest('base64');
}

export async function startFakeTwilio(options: FakeTwilioOptions = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${'0'.repeat(32)}`;
  const authToken = options.authToken ?? 'fake-auth-token';
  const apiKeys = options.apiKeys ?? {};
  const failures: number[] = [];
  let inFlight = 0;

  function authUser(request: IncomingMessage): string | null {
    const match = /^Basic (.+)$/.exec(request.headers.authorization ?? '');
    if (!match) return null;
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return null;
    const user = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (user === accountSid && password === authToken) return user;
    return apiKeys[user] !== undefined && apiKeys[user] === password ? user : null;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://fake').pathname;
    const body = await readBody(request);
    if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    const user = authUser(request);
    if (!user) {
      twilioError(response, 401, 20003, 'Authenticate', { detail: 'Your AccountSid or AuthToken was incorrect.' });
      return;
    }
    const prefix = `/2010-04-01/Accounts/${accountSid}`;
    if (request.method === 'GET' && path === `${prefix}.json`) {
      sendJson(response, 200, {
        sid: accountSid,
        friendly_name: 'Herald test account',
        status: 'active',
        type: 'Full',
        auth_token: authToken,
        uri: `${prefix}.json`,
      });
      return;
    }
    if (request.method === 'GET' && path === `${prefix}/Balance.json`) {
      sendJson(response, 200, {
        account_sid: accountSid,
        balance: options.balance ?? '12.34',
        currency: options.currency ?? 'USD',
      });
      return;
    }
    if (request.method === 'POST' && path === `${prefix}/Messages.json`) {
      const failure = failures.shift();
      if (failure === 429) return twilioError(response, 429, 20429, 'Too Many Requests');
      if (failure === 500) return twilioError(response, 500, 20500, 'Internal Server Error');
      if (!(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        return twilioError(response, 400, 21601, 'Unsupported content type');
      }
      const form = new URLSearchParams(body);
      const to = form.get('To') ?? '';
      const text = form.get('Body') ?? '';
      const from = form.get('From');
      const messagingServiceSid = form.get('MessagingServiceSid');
      if (!E164.test(to)) return twilioError(response, 400, 21211, "Invalid 'To' Phone Number");
      if (!from && !messagingServiceSid) return twilioError(response, 400, 21603, "A 'From' phone number is required.");
      if (!text) return twilioError(response, 400, 21602, 'Message body is required.');
      const message: FakeTwilioMessage = {
        sid: sid('SM'),
        to,
        from,
        messagingServiceSid,
        body: text,
        statusCallback: form.get('StatusCallback'),
        numSegments: segments(text),
        authUser: user,
      };
      fake.messages.push(message);
      sendJson(response, 201, {
        account_sid: accountSid,
        api_version: '2010-04-01',
        body: text,
        date_created: new Date().toUTCString(),
        direction: 'outbound-api',
        error_code: null,
        error_message: null,
        from,
        messaging_service_sid: messagingServiceSid,
        num_media: '0',
        num_segments: String(message.numSegments),
        price: null,
        sid: message.sid,
        status: messagingServiceSid ? 'accepted' : 'queued',
        to,
        uri: `${prefix}/Messages/${message.sid}.json`,
      });
      return;
    }
    twilioError(response, 404, 20404, `The requested resource ${path} was not found`);
  }

  const server = createServer((request, response) => {
    fake.requestCount++;
    if (fake.hang) return;
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    handle(request, response)
      .catch((error: Error) => twilioError(response, 500, 20500, error.message))
      .finally(() => inFlight--);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeTwilio = {
    baseUrl: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages: [],
    requestCount: 0,
    maxInFlight: 0,
    delayMs: 0,
    hang: false,
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    async sendStatusCallback(messageSid, status, callbackOptions = {}) {
      const message = fake.messages.find((candidate) => candidate.sid === messageSid);
      const url = callbackOptions.url ?? message?.statusCallback;
      if (!message || !url) throw new Error(`no status callback URL for ${messageSid}`);
      const params: Record<string, string> = {
        AccountSid: accountSid,
        ApiVersion: '2010-04-01',
        From: message.from ?? '',
        MessageSid: message.sid,
        MessageStatus: status,
        SmsSid: message.sid,
        SmsStatus: status,
        To: message.to,
        ...(callbackOptions.errorCode ? { ErrorCode: callbackOptions.errorCode } : {}),
      };
      const signed = signature(authToken, url, params);
      if (callbackOptions.tamper) params.MessageStatus = status === 'delivered' ? 'undelivered' : 'delivered';
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signed },
        body: new URLSearchParams(params).toString(),
      });
      await response.arrayBuffer();
      return { status: response.status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
