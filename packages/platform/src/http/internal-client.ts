import { randomUUID, type KeyObject } from 'node:crypto';
import { tenantPath, type InternalTransport, type Refusal } from '@travel/contracts';
import { mintContext, CONTEXT_HEADER } from '../context';
import { AppError, isErrorCode } from '../errors';
import { UpstreamList } from './upstream-list';

// The paths' form is the published clients' (contracts/src/clients): re-exported for the platform's callers.
export { tenantPath };

export interface InternalClientOptions {
  /**
   * Base URL of the target service (its `/internal` routes hang below it), or the base URLs of its replicas
   * separated by commas: calls go round robin over them (docs/decisions/0214).
   */
  baseUrl: string;
  /** The caller's own private key (INTERNAL_SIGNING_KEY), which signs the service context. */
  signingKey: KeyObject;
  /** Who calls (the minted context's `service`, its issuer). */
  caller: string;
  /** Who is called: the context's audience, and the name in the error a client sees when it does not answer. */
  target: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/**
 * Service-to-service calls to another context's `/internal` routes, behind a service context signed with
 * the caller's own key and addressed to the target (never through the gateway; docs/decisions/0100). An unreachable or failing target is 503
 * `SERVICE_UNAVAILABLE` (the partner's client retries), never a wrong answer; 404 is the target's "not
 * the company's" and is left to the caller to read.
 */
export class InternalClient implements InternalTransport {
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly replicas: UpstreamList;

  constructor(private readonly options: InternalClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.fetchImpl = options.fetchImpl ?? fetch;
    this.replicas = new UpstreamList(options.baseUrl);
  }

  /** One call; only a transport failure throws here (503). */
  async send(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      [CONTEXT_HEADER]: mintContext(
        { kind: 'service', service: this.options.caller, audience: this.options.target, requestId: randomUUID() },
        this.options.signingKey,
      ),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const signal = AbortSignal.timeout(this.timeoutMs);
    try {
      // A replica that refused the connection never saw the call: the next one gets it (one time-out for all).
      return await this.replicas.send((baseUrl) =>
        this.fetchImpl(`${baseUrl}/internal${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
        }),
      );
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', `The ${this.options.target} service did not answer; try again.`);
    }
  }

  /** The 503 for an answer the caller cannot use. */
  failed(res: Response): AppError {
    return new AppError('SERVICE_UNAVAILABLE', `The ${this.options.target} service answered ${res.status}; try again.`);
  }

  /** The 503 for a target that answered but cannot serve the call. */
  unavailable(detail: string): AppError {
    return new AppError('SERVICE_UNAVAILABLE', detail);
  }

  /** The target's refusal of the caller's input, as the same AppError (an unknown code: VALIDATION_FAILED). */
  refused({ code, detail, errors }: Refusal): AppError {
    return new AppError(isErrorCode(code) ? code : 'VALIDATION_FAILED', detail, errors);
  }

  /** GET a JSON body; 404 is null. */
  async getOrNull<T>(path: string): Promise<T | null> {
    const res = await this.send('GET', path);
    if (res.status === 404) return null;
    if (!res.ok) throw this.failed(res);
    return (await res.json()) as T;
  }

  /** POST a JSON body and read the JSON answer; anything but 2xx is 503. */
  async postJson<T>(path: string, body: unknown): Promise<T> {
    const res = await this.send('POST', path, body);
    if (!res.ok) throw this.failed(res);
    return (await res.json()) as T;
  }

  /** GET a JSON answer; anything but 2xx is 503. */
  async getJson<T>(path: string): Promise<T> {
    const res = await this.send('GET', path);
    if (!res.ok) throw this.failed(res);
    return (await res.json()) as T;
  }

  /** Whether the target has the record (200) or not (404). */
  async exists(path: string): Promise<boolean> {
    const res = await this.send('GET', path);
    if (res.status === 404) return false;
    if (res.ok) return true;
    throw this.failed(res);
  }
}

/**
 * One caller's transports to the services it calls, for their published clients (contracts/src/clients):
 * `new EmployeesClient(to('employees', config.employeesUrl))`, each signed with the caller's own key.
 */
export const internalTransports =
  (caller: string, signingKey: KeyObject) =>
  (target: string, baseUrl: string, timeoutMs?: number): InternalClient =>
    new InternalClient({ baseUrl, signingKey, caller, target, timeoutMs });
