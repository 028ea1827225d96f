/**
 * A loopback JSON SMS gateway for the generic http-sms channel: checks a configurable auth header,
 * records every request, answers sends with an id and serves /balance and /verify.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  rawBody: string;
  /** The body parsed as JSON; undefined when empty or not JSON. */
  json: unknown;
}

export interface FakeSmsGatewayOptions {
  authHeaderName?: string;
  authHeaderValue?: string;
  /** Builds the send answer from the new id; default `{ id }`. */
  sendAnswer?: (id: string) => unknown;
  balanceAnswer?: unknown;
}

export interface FakeSmsGateway {
  url: string;
  requests: RecordedRequest[];
  /** The next `count` requests answer this status and body instead of the normal handling. */
  respondNext(status: number, body: unknown, count?: number): void;
  /** Never answers any request (for timeouts). */
  hang: boolean;
  close(): Promise<void>;
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  response.end(body === undefined ? undefined : JSON.stringify(body));
}

export async function startFakeSmsGateway(options: FakeSmsGatewayOptions = {}): Promise<FakeSmsGateway> {
  const headerName = (options.authHeaderName ?? 'Authorization').toLowerCase();
  const headerValue = options.authHeaderValue ?? 'Bearer gateway-secret';
  const forced: Array<{ status: number; body: unknown }> = [];
  let nextId = 1;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', 'http://fake');
    let json: unknown;
    try {
      json = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      json = undefined;
    }
    const method = request.method ?? 'GET';
    gateway.requests.push({
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      rawBody,
      json,
    });
    const override = forced.shift();
    if (override) return sendJson(response, override.status, override.body);
    if (request.headers[headerName] !== headerValue) return sendJson(response, 401, { error: 'unauthorized' });
    if (url.pathname === '/balance' && method === 'GET') {
      return sendJson(response, 200, options.balanceAnswer ?? { balance: 42.5, currency: 'EUR' });
    }
    if (url.pathname === '/verify' && method === 'GET') return sendJson(response, 200, { ok: true });
    if (url.pathname === '/send') {
      if (method === 'HEAD') {
        response.writeHead(405, { Allow: 'POST, PUT, GET' });
        return void response.end();
      }
      if (method !== 'GET' && json === undefined) return sendJson(response, 400, { error: 'body must be JSON' });
      const id = `gw-${nextId++}`;
      return sendJson(response, 200, options.sendAnswer ? options.sendAnswer(id) : { id });
    }
    sendJson(response, 404, { error: 'not found' });
  }

  const server = createServer((request, response) => {
    if (gateway.hang) return;
    handle(request, response).catch((error: Error) => sendJson(response, 500, { error: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const gateway: FakeSmsGateway = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    hang: false,
    respondNext(status, body, count = 1) {
      for (let i = 0; i < count; i++) forced.push({ status, body });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return gateway;
}
