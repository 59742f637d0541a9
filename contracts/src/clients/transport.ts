// What a published client (docs/services.md, "Calls between services") needs of its caller: the calling
// service's signed transport to the provider's `/internal` routes. @travel/platform's InternalClient is
// it (a service context signed with the caller's own key, addressed to the provider; decision 0100); the
// clients here hold only the provider's paths, bodies and answers, so contracts depends on no service.

/** A problem body's part a client hands back to its caller as the same error (400 answers). */
export interface Refusal {
  code: string;
  detail?: string;
  errors?: Record<string, string[]>;
}

export interface InternalTransport {
  /** One call to `/internal{path}`; only a transport failure throws (503). */
  send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Response>;
  /** GET a JSON body; 404 is null, anything else but 2xx is 503. */
  getOrNull<T>(path: string): Promise<T | null>;
  /** GET a JSON body; anything but 2xx is 503. */
  getJson<T>(path: string): Promise<T>;
  /** POST a JSON body and read the JSON answer; anything but 2xx is 503. */
  postJson<T>(path: string, body: unknown): Promise<T>;
  /** Whether the provider has the record (200) or not (404); anything else is 503. */
  exists(path: string): Promise<boolean>;
  /** The 503 for an answer the caller cannot use. */
  failed(res: Response): Error;
  /** The 503 for a provider that answered but cannot serve the call. */
  unavailable(detail: string): Error;
  /** The provider's refusal of the caller's input, as the same error (code, detail, field errors). */
  refused(refusal: Refusal): Error;
}

/** `/tenants/{tenantId}/…` with every segment encoded. */
export const tenantPath = (tenantId: string, ...segments: string[]): string =>
  ['/tenants', tenantId, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');

/** `?ids=a,b,c`: the lists the internal routes take. */
export const idsQuery = (ids: readonly string[]): string => `?${new URLSearchParams({ ids: ids.join(',') })}`;
