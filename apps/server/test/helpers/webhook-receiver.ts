/**
 * A loopback webhook receiver that checks every request the way an integrator would: it recomputes the
 * HMAC-SHA256 of "<t>.<raw body>" under the shared secret and keeps only what verifies.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedEvent {
  eventId: string;
  body: Record<string, unknown>;
  verified: boolean;
}

export interface WebhookReceiver {
  url: string;
  /** Set once the secret is known (it is shown when the webhook is saved). */
  secret: string;
  events: ReceivedEvent[];
  /** Status the next `count` requests are answered with instead of 200. */
  failNext(status: number, count?: number): void;
  close(): Promise<void>;
}

function verifies(secret: string, rawBody: string, header: string | undefined): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? '');
  if (!match) return false;
  const [, t, v1] = match as unknown as [string, string, string];
  if (Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const failures: number[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const forced = failures.shift();
      if (forced !== undefined) {
        response.writeHead(forced).end();
        return;
      }
      const raw = Buffer.concat(chunks).toString('utf8');
      receiver.events.push({
        eventId: String(request.headers['x-herald-event-id']),
        body: JSON.parse(raw) as Record<string, unknown>,
        verified: verifies(receiver.secret, raw, request.headers['x-herald-signature'] as string | undefined),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/hooks/herald`,
    secret: '',
    events: [],
    failNext(status, count = 1) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}
