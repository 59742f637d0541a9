import type { components } from './openapi';

/** The documented error body (RFC 9457 problem details with `code`, `errors` and `traceId`). */
export type Problem = components['schemas']['Problem'];
/** Codes the contract documents; a later minor version may add one, so any string is kept as it came. */
export type ProblemCode = Problem['code'] | (string & {});

/** The API answered with an error status: the problem body, typed. */
export class TravelApiError extends Error {
  override readonly name = 'TravelApiError';
  /** HTTP status (400, 404, 409, 429, …). */
  readonly status: number;
  /** The problem's `code` (`VALIDATION_FAILED`, `NOT_FOUND`, …); `UNKNOWN` when the body was no problem. */
  readonly code: ProblemCode;
  /** Field errors of a 400: request property path (or a key the spec names, like `entryIds[1]`) to messages. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** The server's trace id, to quote to support. */
  readonly traceId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After` of a 429 or 503), if it said. */
  readonly retryAfterSeconds: number | undefined;
  /** The whole body: the problem when there was one, else the text. */
  readonly body: Problem | string;

  constructor(
    readonly method: string,
    readonly url: string,
    response: Response,
    body: unknown,
  ) {
    const problem = isProblem(body) ? body : undefined;
    super(
      `${method} ${new URL(url).pathname}: ${response.status} ${problem?.code ?? 'UNKNOWN'}${problem ? ` (${problem.title})` : ''}`,
    );
    this.status = response.status;
    this.code = problem?.code ?? 'UNKNOWN';
    this.errors = problem?.errors ?? {};
    this.traceId = problem?.traceId;
    this.retryAfterSeconds = retryAfterSeconds(response.headers);
    this.body = problem ?? (typeof body === 'string' ? body : JSON.stringify(body));
  }
}

/** The request got no answer: refused connection, reset, DNS, or no answer within the time-out. */
export class TravelNetworkError extends Error {
  override readonly name = 'TravelNetworkError';
  constructor(
    readonly method: string,
    readonly url: string,
    /** True when the attempt ran out of time (the client's `timeoutMs`) rather than failing outright. */
    readonly timedOut: boolean,
    cause: unknown,
  ) {
    super(`${method} ${new URL(url).pathname}: ${timedOut ? 'no answer in time' : `no answer (${describe(cause)})`}`, {
      cause,
    });
  }
}

function isProblem(body: unknown): body is Problem {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.status === 'number';
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = (cause as Error & { cause?: unknown }).cause;
    const code = typeof inner === 'object' && inner !== null ? (inner as { code?: unknown }).code : undefined;
    const detail = typeof code === 'string' ? code : inner instanceof Error ? inner.message : undefined;
    return detail ? `${cause.message}: ${detail}` : cause.message;
  }
  return String(cause);
}
