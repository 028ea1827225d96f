/** HTTP plumbing the HTTP SMS channels share: one bounded exchange, precise network errors, batched sends. */
import type { ChannelSettings, OutgoingMessage, OutgoingSms, SendResult } from './types.js';

/** A single send request gives up after this long; the message is then retried as a transient failure. */
export const SEND_TIMEOUT_MS = 30_000;
/** Requests in flight per batch: enough to keep a vendor busy without tripping its rate limits. */
export const SEND_CONCURRENCY = 10;

export function settingText(settings: ChannelSettings, name: string, fallback = ''): string {
  const value = settings[name];
  return value === undefined || value === null || value === '' ? fallback : String(value).trim();
}

export interface HttpAnswer {
  status: number;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
}

/** Where a request went, without the query string, which may carry credentials (e.g. api_id=). */
export function target(method: string, url: string): string {
  try {
    const parsed = new URL(url);
    return `${method} ${parsed.origin}${parsed.pathname}`;
  } catch {
    return `${method} ${url}`;
  }
}

/** fetch's opaque "fetch failed" turned into the cause an operator can act on, e.g. "ECONNREFUSED 127.0.0.1:9". */
export function describeNetworkError(error: unknown, method: string, url: string, timeoutMs: number): string {
  const where = target(method, url);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `timed out after ${timeoutMs} ms (${where})`;
  }
  const cause = (error as { cause?: { code?: string; address?: string; port?: number; hostname?: string; message?: string } })
    .cause;
  if (cause?.code) {
    const peer = cause.address ? `${cause.address}${cause.port ? `:${cause.port}` : ''}` : (cause.hostname ?? '');
    return `${cause.code} ${peer || where}`.trim();
  }
  const message = cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `${message} (${where})`;
}

/** One HTTP exchange; network failures and timeouts throw an Error carrying the precise cause. */
export async function httpExchange(url: string, init: RequestInit, timeoutMs: number): Promise<HttpAnswer> {
  const method = init.method ?? 'GET';
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, text, json };
  } catch (error) {
    throw new Error(describeNetworkError(error, method, url, timeoutMs), { cause: error });
  }
}

export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** Throttling and server faults may pass; other refusals will repeat on retry. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The start of an error body, enough to show the gateway's reason without flooding the log. */
export function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** A refusal as "HTTP 400 {…body…}", the status first so operators can grep for it. */
export function httpFailure(answer: HttpAnswer): string {
  return `HTTP ${answer.status}${answer.text ? ` ${snippet(answer.text)}` : ''}`;
}

/** Runs fn over items with at most `limit` calls in flight, keeping the results in input order. */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Sends SMS one by one, refusing emails that were routed to an SMS channel by mistake. */
export function sendSmsBatch(
  messages: OutgoingMessage[],
  sendOne: (sms: OutgoingSms) => Promise<SendResult>,
): Promise<SendResult[]> {
  return mapConcurrent(messages, SEND_CONCURRENCY, async (message) =>
    'subject' in message ? { id: message.id, accepted: false, error: 'an SMS channel cannot send email' } : sendOne(message),
  );
}
