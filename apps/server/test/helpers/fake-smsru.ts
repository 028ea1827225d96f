/**
 * A loopback stand-in for SMS.ru's HTTP API with json=1: sms/send (per-number OK/ERROR entries with sms_id),
 * my/balance, request-level errors such as 200 for a wrong api_id, and dashboard-style status callbacks.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeSmsRuMessage {
  smsId: string;
  to: string;
  msg: string;
  from: string | null;
  test: boolean;
  /** How the parameters arrived: SMS.ru takes both the query string and a form body. */
  via: 'query' | 'form';
}

export interface FakeSmsRu {
  baseUrl: string;
  apiId: string;
  messages: FakeSmsRuMessage[];
  balance: number;
  /** The next `count` API requests answer this request-level status code (e.g. 220 or 500). */
  failNext(code: number, text: string, count?: number): void;
  /** Never answers any request (for timeouts). */
  hang: boolean;
  /** POSTs data[0]=sms_status… to `url` as SMS.ru's callback does; returns the body the receiver answered. */
  sendStatusCallback(url: string, smsId: string, code: number, unixTime?: number): Promise<string>;
  close(): Promise<void>;
}

function reply(response: ServerResponse, body: unknown): void {
  // SMS.ru answers HTTP 200 and puts the outcome in status/status_code.
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}

export async function startFakeSmsRu(options: { apiId?: string; balance?: number } = {}): Promise<FakeSmsRu> {
  const apiId = options.apiId ?? 'ABCDEF01-2345-6789-ABCD-EF0123456789';
  const failures: Array<{ code: number; text: string }> = [];
  let nextId = 1;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', 'http://fake');
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const via = form.has('api_id') ? 'form' : 'query';
    const params = via === 'form' ? form : url.searchParams;
    const failure = failures.shift();
    if (failure) return reply(response, { status: 'ERROR', status_code: failure.code, status_text: failure.text });
    if (params.get('api_id') !== apiId)
      return reply(response, { status: 'ERROR', status_code: 200, status_text: 'Неправильный api_id' });
    if (url.pathname === '/my/balance') return reply(response, { status: 'OK', status_code: 100, balance: fake.balance });
    if (url.pathname === '/sms/send') {
      const msg = params.get('msg') ?? '';
      if (!msg) return reply(response, { status: 'ERROR', status_code: 203, status_text: 'Нет текста сообщения' });
      const sms: Record<string, unknown> = {};
      for (const to of (params.get('to') ?? '').split(',')) {
        if (!/^\d{10,15}$/.test(to)) {
          sms[to] = {
            status: 'ERROR',
            status_code: 202,
            status_text: 'Неправильно указан номер телефона получателя, либо на него нет маршрута',
          };
          continue;
        }
        const n = nextId++;
        const smsId = `${String(n).padStart(6, '0')}-${10_000_000 + n}`;
        fake.messages.push({ smsId, to, msg, from: params.get('from'), test: params.get('test') === '1', via });
        sms[to] = { status: 'OK', status_code: 100, sms_id: smsId };
      }
      return reply(response, { status: 'OK', status_code: 100, sms, balance: fake.balance });
    }
    reply(response, { status: 'ERROR', status_code: 211, status_text: 'Метод не найден' });
  }

  const server = createServer((request, response) => {
    if (fake.hang) return;
    handle(request, response).catch((error: Error) => {
      response.writeHead(500).end(error.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeSmsRu = {
    baseUrl: `http://127.0.0.1:${port}`,
    apiId,
    messages: [],
    balance: options.balance ?? 4122.56,
    hang: false,
    failNext(code, text, count = 1) {
      for (let i = 0; i < count; i++) failures.push({ code, text });
    },
    async sendStatusCallback(url, smsId, code, unixTime = Math.floor(Date.now() / 1000)) {
      const body = new URLSearchParams({ 'data[0]': ['sms_status', smsId, String(code), String(unixTime)].join('\n') });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      return response.text();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
