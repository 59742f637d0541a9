export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A partner's view of the API: JSON over HTTP with an API key, nothing else. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey?: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  withKey(apiKey: string): ApiClient {
    return new ApiClient(this.baseUrl, apiKey, this.extraHeaders);
  }

  async request<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    // A string or FormData (multipart: fetch sets the boundary) is sent as is; anything else as JSON.
    const raw = typeof body === 'string' || body instanceof FormData;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}),
        ...(body !== undefined && !raw ? { 'content-type': 'application/json' } : {}),
        ...this.extraHeaders,
        ...headers,
      },
      body: body === undefined ? undefined : raw ? (body as string | FormData) : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  /** A GET whose body is kept as bytes (a file: XLSX, PDF). */
  async bytes(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: Headers; body: Buffer }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      headers: { ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}), ...this.extraHeaders, ...headers },
    });
    return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body ?? {}, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', path, body ?? {}, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', path, undefined, headers);
  }
}

/** Polls until `check` returns a value other than undefined/false, or fails with the last value seen. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 10_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
