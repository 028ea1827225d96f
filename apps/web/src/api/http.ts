/** The console's one HTTP client: base /api, X-Token, Accept-Language, the 5 s timeout and the error catalogue of spec section 8. */
import { API_NOTIFY_MS, GENERIC_ERROR_MS, REQUEST_TIMEOUT_MS, TOKEN_HEADER } from '@herald/shared';
import type { App, ModalFuncProps } from 'antd';
import i18n, { currentLanguage } from '../i18n';
import { clearToken, getToken } from '../session/token';

const BASE = '/api';

export interface FieldError {
  field: string;
  key: string;
  message: string;
}

export class ApiError extends Error {
  /** HTTP status, or 0 when no answer came (network failure or timeout). */
  status: number;
  key?: string;
  fields?: FieldError[];
  /** True when the message came from the server's error body rather than from the client. */
  fromServer: boolean;
  timedOut: boolean;

  constructor(
    status: number,
    text: string,
    details: { key?: string; fields?: FieldError[]; fromServer?: boolean; timedOut?: boolean } = {},
  ) {
    super(text);
    this.name = 'ApiError';
    this.status = status;
    this.key = details.key;
    this.fields = details.fields;
    this.fromServer = details.fromServer ?? false;
    this.timedOut = details.timedOut ?? false;
  }
}

export interface RequestOptions {
  /** The caller shows the failure itself; nothing is reported centrally. */
  silent?: boolean;
}

type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

type AppApi = ReturnType<typeof App.useApp>;

/** Where messages, notifications and dialogs appear; the shell passes `App.useApp()` so they follow antd's App context. */
export interface ErrorPresenter {
  message: AppApi['message'];
  notification: AppApi['notification'];
  modal: { warning(config: ModalFuncProps): unknown };
}

// Deep paths, because a dynamic import of the 'antd' barrel would make a chunk of the whole library.
const ANTD_STATICS = {
  message: () => import('antd/es/message'),
  notification: () => import('antd/es/notification'),
  Modal: () => import('antd/es/modal'),
};

type AntdStatics = { [K in keyof typeof ANTD_STATICS]: Awaited<ReturnType<(typeof ANTD_STATICS)[K]>>['default'] };

/** Forwards every call to one of antd's static APIs, fetched on first use: the shell binds App.useApp() before anything fails. */
function deferred<K extends keyof AntdStatics>(name: K): AntdStatics[K] {
  return new Proxy({} as AntdStatics[K], {
    get:
      (_target, method) =>
      (...args: unknown[]) =>
        void ANTD_STATICS[name]().then(({ default: api }) => {
          Reflect.apply(Reflect.get(api, method) as (...params: unknown[]) => unknown, api, args);
        }),
  });
}

let presenter: ErrorPresenter = {
  message: deferred('message'),
  notification: deferred('notification'),
  modal: deferred('Modal'),
};

export function setErrorPresenter(next: ErrorPresenter): void {
  presenter = next;
}

export function getPresenter(): ErrorPresenter {
  return presenter;
}

const reported = new WeakSet<object>();
let signingOut = false;

function signOutAndReload(): void {
  if (signingOut) return;
  signingOut = true;
  clearToken();
  // The reload lands on the same path, whose guard sends the user to /login?redirect=<that path>.
  window.location.reload();
}

/** Shows a failure the way the error catalogue says; an error is shown at most once, so callers may report freely. */
export function reportError(error: unknown): void {
  if (typeof error !== 'object' || error === null || reported.has(error)) return;
  reported.add(error);
  if (!(error instanceof ApiError)) {
    presenter.message.error(error instanceof Error ? error.message : String(error), GENERIC_ERROR_MS / 1000);
    return;
  }
  if (error.status === 502 || error.status === 503 || (error.status === 0 && !error.timedOut)) {
    presenter.message.error(i18n.t('errors:error.apiDown'), API_NOTIFY_MS / 1000);
  } else if (error.status === 401) {
    // The login page shows login.loginFail itself.
    if (window.location.pathname !== '/login') signOutAndReload();
  } else if ((error.status === 400 || error.status === 500) && error.fromServer) {
    presenter.notification.error({ title: error.message, duration: API_NOTIFY_MS / 1000 });
  } else {
    presenter.message.error(error.message, GENERIC_ERROR_MS / 1000);
  }
}

function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) if (item !== undefined && item !== null) params.append(name, String(item));
  }
  const search = params.toString();
  return `${BASE}${path}${search ? `?${search}` : ''}`;
}

async function readPayload(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  if (!(response.headers.get('content-type') ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFromAnswer(status: number, payload: unknown): ApiError {
  const body = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>) : {};
  const serverMessage = typeof body.message === 'string' && body.message ? body.message : undefined;
  return new ApiError(status, serverMessage ?? i18n.t('api:failed', { status }), {
    key: typeof body.key === 'string' ? body.key : undefined,
    fields: Array.isArray(body.fields) ? (body.fields as FieldError[]) : undefined,
    fromServer: serverMessage !== undefined,
  });
}

interface Payload {
  body?: BodyInit;
  contentType?: string;
}

async function request<T>(method: string, url: string, payload: Payload, options: RequestOptions = {}): Promise<T> {
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': currentLanguage() });
  const token = getToken();
  if (token) headers.set(TOKEN_HEADER, token);
  if (payload.contentType) headers.set('Content-Type', payload.contentType);
  const controller = new AbortController();
  const timer = window.setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let error: ApiError;
  try {
    const response = await fetch(url, { method, headers, body: payload.body ?? null, signal: controller.signal });
    const answer = await readPayload(response);
    if (response.ok) return answer as T;
    error = errorFromAnswer(response.status, answer);
  } catch (failure) {
    error = controller.signal.aborted
      ? new ApiError(0, i18n.t('api:timeout', { seconds: REQUEST_TIMEOUT_MS / 1000 }), { timedOut: true })
      : new ApiError(0, i18n.t('errors:error.apiDown'));
    error.cause = failure;
  } finally {
    window.clearTimeout(timer);
  }
  if (!options.silent) reportError(error);
  throw error;
}

function json(body: unknown): Payload {
  return body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' };
}

export const http = {
  get<T>(path: string, query?: Query, options?: RequestOptions): Promise<T> {
    return request<T>('GET', buildUrl(path, query), {}, options);
  },
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return request<T>('POST', buildUrl(path), json(body), options);
  },
  put<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T> {
    return request<T>('PUT', buildUrl(path), json(body), options);
  },
  delete<T>(path: string, options?: RequestOptions): Promise<T> {
    return request<T>('DELETE', buildUrl(path), {}, options);
  },
  postForm<T>(path: string, fields: Record<string, string>, options?: RequestOptions): Promise<T> {
    return request<T>('POST', buildUrl(path), { body: new URLSearchParams(fields) }, options);
  },
  /** The browser sets the multipart boundary itself, so no Content-Type here. */
  postMultipart<T>(path: string, form: FormData, options?: RequestOptions): Promise<T> {
    return request<T>('POST', buildUrl(path), { body: form }, options);
  },
  postText<T>(path: string, text: string, options?: RequestOptions): Promise<T> {
    return request<T>('POST', buildUrl(path), { body: text, contentType: 'text/plain; charset=utf-8' }, options);
  },
};
