// Outcome classes of the spec's delivery state table.
export type AttemptOutcome = 'succeeded' | 'failed' | 'retry' | 'exhausted';

export const MAX_ATTEMPTS = 9;

/**
 * 2xx succeeds; 408, 429, 5xx, a network error or no answer in time is retried; any other status
 * (4xx, and 3xx since redirects are never followed) fails for good. The last retryable outcome of
 * attempt 9 is Exhausted. Retry-After is ignored on purpose (the schedule is fixed).
 */
export function classify(statusCode: number | undefined, attempt: number): AttemptOutcome {
  if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) return 'succeeded';
  const retryable = statusCode === undefined || statusCode === 408 || statusCode === 429 || statusCode >= 500;
  if (!retryable) return 'failed';
  return attempt >= MAX_ATTEMPTS ? 'exhausted' : 'retry';
}

export type DeliveryStatus = 'Pending' | 'Succeeded' | 'Failed' | 'Exhausted';

export const statusAfter = (outcome: AttemptOutcome): DeliveryStatus =>
  outcome === 'succeeded'
    ? 'Succeeded'
    : outcome === 'failed'
      ? 'Failed'
      : outcome === 'exhausted'
        ? 'Exhausted'
        : 'Pending';

/** Consecutive Exhausted deliveries that disable a subscription. */
export const DISABLE_AFTER_EXHAUSTED = 10;
