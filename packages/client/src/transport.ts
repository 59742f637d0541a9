import { retryAfterSeconds, TravelNetworkError } from './errors';

export interface TransportOptions {
  /** Time-out of one attempt, in ms (default 30 s). A time-out is a `TravelNetworkError` with `timedOut`. */
  timeoutMs?: number;
  /** Retries after the first attempt, where a retry is safe (see `isRetryable`); default 2, 0 turns them off. */
  retries?: number;
  /** First back-off in ms when the server names no wait (default 250; doubled each retry). */
  retryDelayMs?: number;
  /** A `Retry-After` longer than this (ms, default 30 s) is not waited for: the error goes to the caller. */
  maxRetryAfterMs?: number;
  /** Your own fetch (a proxy agent, tests); the global one by default. */
  fetch?: typeof fetch;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Statuses at which a read is tried again: the gateway's or a service's "not now". */
const TRANSIENT = new Set([502, 503, 504]);

/**
 * Whether an answer (or its absence) may be retried. Reads: on no answer, a time-out, 429 and 502/503/504.
 * Writes only on 429: the gateway refuses a rate-limited request before any service sees it, so nothing
 * happened. A write that got no answer or a 503 may have been carried out, so it is never repeated
 * (docs/decisions/0152).
 */
export function isRetryable(method: string, outcome: { status: number } | 'no-answer'): boolean {
  if (outcome !== 'no-answer' && outcome.status === 429) return true;
  if (!SAFE_METHODS.has(method.toUpperCase())) return false;
  return outcome === 'no-answer' || TRANSIENT.has(outcome.status);
}

const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/**
 * A fetch for openapi-fetch: gives each attempt its time-out, retries where `isRetryable`
 * allows, and turns "no answer" into a `TravelNetworkError`. A caller's own abort signal ends it at once.
 */
export function transportFetch(options: TransportOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 2;
  const baseDelay = options.retryDelayMs ?? 250;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;

  return async (request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        // The original request stays unread, so a retry can send its body again.
        response = await send(request.clone(), { signal: AbortSignal.any([request.signal, timeout]) });
      } catch (error) {
        if (request.signal.aborted) throw error; // the caller's own abort
        if (last || !isRetryable(request.method, 'no-answer'))
          throw new TravelNetworkError(request.method, request.url, timeout.aborted, error);
        await sleep(baseDelay * 2 ** attempt, request.signal);
        continue;
      }
      if (last || response.ok || !isRetryable(request.method, response)) return response;
      const asked = retryAfterSeconds(response.headers);
      const wait = asked === undefined ? baseDelay * 2 ** attempt : asked * 1000;
      if (wait > maxRetryAfterMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
