/**
 * The hand-written part of the SDK: authentication, timeouts, retries with one Idempotency-Key per logical send,
 * and typed calls of the public API. The request and answer types are generated from /api/openapi.json.
 */
import type {
  GetMessageResponse,
  SendBatchRequest,
  SendBatchResponse,
  SendMessageRequest,
  SendMessageResponse,
} from './generated/api.js';
import { newIdempotencyKey } from './idempotency.js';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, parseRetryAfter, type RetryOptions, sleep } from './retry.js';

export interface HeraldClientOptions {
  /** Where Herald answers, e.g. https://herald.example.com */
  baseUrl: string;
  /** An API key (`hk_…`), sent as `Authorization: Bearer`; needed for /api/v1. */
  apiKey?: string;
  /** A console session token (X-Token), for the console's own calls. */
  token?: string;
  /** Limit of one attempt, in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Backoff settings, or false for a single attempt. */
  retry?: Partial<RetryOptions> | false;
  /** A fetch of your own (default: the global one). */
  fetch?: typeof fetch;
  /** The language of error messages (Accept-Language: en, ru or uk); without it, the key's account's saved one. */
  language?: string;
}

export interface CallOptions {
  /** Reuse a key of your own, e.g. an order id, so a send repeated by your code is not sent twice. */
  idempotencyKey?: string;
  /** Cancels the call, its waits and its retries. */
  signal?: AbortSignal;
}

/** A POST without an Idempotency-Key is retried only after a 429, which means nothing was done; GET, PUT, DELETE always. */
export interface RequestOptions extends CallOptions {
  /** Query-string values; undefined ones are left out. */
  query?: Record<string, string | number | boolean | undefined>;
}

export interface FieldFault {
  field: string;
  key: string;
  message: string;
}

/** The API's error body: a message key, a text in the request's language, and the fields at fault. */
export class HeraldError extends Error {
  constructor(
    /** HTTP status, or 0 when no answer came (network failure or timeout). */
    readonly status: number,
    readonly key: string | undefined,
    message: string,
    readonly fields: FieldFault[] = [],
    /** From the Retry-After header of a 429 or 503, in seconds. */
    readonly retryAfterSeconds?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HeraldError';
  }
}

/** One logical send: the message plus the call options; the Idempotency-Key is made here if not given. */
export type SendOptions = CallOptions;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFromAnswer(response: Response, body: unknown): HeraldError {
  const error = typeof body === 'object' && body !== null ? (body as { key?: unknown; message?: unknown; fields?: unknown }) : {};
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  return new HeraldError(
    response.status,
    typeof error.key === 'string' ? error.key : undefined,
    typeof error.message === 'string' && error.message ? error.message : `HTTP ${response.status} ${response.statusText}`.trim(),
    Array.isArray(error.fields) ? (error.fields as FieldFault[]) : [],
    retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000),
  );
}

export class HeraldClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly retry: RetryOptions;

  /** The public sending API (/api/v1/messages); needs `apiKey`. */
  readonly messages = {
    /** Sends one message by template name or inline content; answers once Herald has stored it (202). */
    send: (message: SendMessageRequest, options: SendOptions = {}): Promise<SendMessageResponse> =>
      this.send('/v1/messages', message, options),
    /** Sends 1..1000 messages all-or-nothing; the answer lists them in request order. */
    sendBatch: (messages: SendBatchRequest['messages'], options: SendOptions = {}): Promise<SendBatchResponse> =>
      this.send('/v1/messages/batch', { messages }, options),
    /** One message with its current status and its whole status history. */
    get: (id: number, options: CallOptions = {}): Promise<GetMessageResponse> =>
      this.request('GET', `/v1/messages/${encodeURIComponent(String(id))}`, undefined, options),
  };

  constructor(private readonly options: HeraldClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.retry = options.retry === false ? { ...DEFAULT_RETRY, retries: 0 } : { ...DEFAULT_RETRY, ...options.retry };
  }

  health(): Promise<{ status: 'up' | 'down' }> {
    return this.request('GET', '/health');
  }

  /** Any call under /api: `path` starts after /api, e.g. '/v1/messages/7'. */
  async request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    const upperMethod = method.toUpperCase();
    const url = this.url(path, options.query);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (this.options.token) headers['x-token'] = this.options.token;
    if (this.options.language) headers['accept-language'] = this.options.language;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const payload = body === undefined ? null : JSON.stringify(body);
    // Without a key a repeated POST could send twice; a 429 was refused before anything happened, so it is always safe.
    const safeToRepeat = IDEMPOTENT_METHODS.has(upperMethod) || options.idempotencyKey !== undefined;

    for (let attempt = 0; ; attempt += 1) {
      const canRetry = attempt < this.retry.retries;
      let response: Response;
      let answer: unknown;
      try {
        response = await this.fetchImpl(url, {
          method: upperMethod,
          headers,
          body: payload,
          signal: this.attemptSignal(options.signal),
        });
        // Inside the try: a connection cut while the body streams in is as much a lost answer as no answer.
        answer = await readBody(response);
      } catch (failure) {
        if (options.signal?.aborted) throw failure;
        if (!canRetry || !safeToRepeat) {
          const reason = failure instanceof Error ? failure.message : String(failure);
          throw new HeraldError(0, undefined, `No answer from Herald: ${reason}`, [], undefined, { cause: failure });
        }
        await sleep(backoffDelay(attempt + 1, this.retry), options.signal);
        continue;
      }
      if (response.ok) return answer as T;
      const error = errorFromAnswer(response, answer);
      if (!canRetry || !isRetryableStatus(response.status) || (!safeToRepeat && response.status !== 429)) throw error;
      const delay =
        error.retryAfterSeconds === undefined ? backoffDelay(attempt + 1, this.retry) : error.retryAfterSeconds * 1000;
      // Retrying before the server's own Retry-After would only be refused again.
      if (delay > this.retry.maxDelayMs) throw error;
      await sleep(delay, options.signal);
    }
  }

  private send<T>(path: string, body: unknown, options: SendOptions): Promise<T> {
    return this.request('POST', path, body, { ...options, idempotencyKey: options.idempotencyKey ?? newIdempotencyKey() });
  }

  private url(path: string, query: RequestOptions['query']): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) params.append(name, String(value));
    const search = params.toString();
    return `${this.baseUrl}/api${path.startsWith('/') ? path : `/${path}`}${search ? `?${search}` : ''}`;
  }

  private attemptSignal(signal: AbortSignal | undefined): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 10_000);
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }
}
