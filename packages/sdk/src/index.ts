/** A typed client for Herald's HTTP API; works in Node 20+ and browsers (global fetch). */

export interface HeraldClientOptions {
  /** e.g. https://herald.example.com */
  baseUrl: string;
  /** A console session token (X-Token). */
  token?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The API's error body: a message key, a text in the request's language, and the fields at fault. */
export class HeraldError extends Error {
  constructor(
    readonly status: number,
    readonly key: string | undefined,
    message: string,
    readonly fields: { field: string; key: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'HeraldError';
  }
}

export class HeraldClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HeraldClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers['x-token'] = this.options.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await this.fetchImpl(`${this.baseUrl}/api${path}`, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
    });
    const text = await response.text();
    const data = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const error = (data ?? {}) as { key?: string; message?: string; fields?: HeraldError['fields'] };
      throw new HeraldError(response.status, error.key, error.message ?? response.statusText, error.fields);
    }
    return data as T;
  }

  health(): Promise<{ status: 'up' | 'down' }> {
    return this.request('GET', '/health');
  }
}
