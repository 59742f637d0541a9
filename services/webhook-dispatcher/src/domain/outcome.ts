// Outcome classes of the spec's delivery state table (the string stored in the attempt log).
export type OutcomeKind = 'succeeded' | 'failed' | 'retry' | 'exhausted';

/** A partner's answer (its status and at most 2 KB of its body). */
export interface Answered {
  kind: 'answered';
  statusCode: number;
  body: string;
  durationMs: number;
}
/** No answer: a network error, the time-out, or DNS trouble (retried). */
export interface NoAnswer {
  kind: 'no-answer';
  error: string;
  durationMs: number;
}
/** The destination resolves to an address that is not allowed (failed for good, nothing sent). */
export interface Refused {
  kind: 'refused';
  error: string;
}
/** Nothing to send any more: the subscription was deleted or disabled, or the event is gone. */
export interface NotSent {
  kind: 'not-sent';
  error: string;
}
/** What became of one attempt's request (app/deliver.ts). */
export type Sent = Answered | NoAnswer | Refused | NotSent;

/** An attempt's outcome: its class, and only the requests that class can follow (docs/decisions/0166). */
export type Outcome =
  | { kind: 'succeeded'; sent: Answered }
  | { kind: 'retry'; sent: Answered | NoAnswer }
  | { kind: 'exhausted'; sent: Answered | NoAnswer }
  | { kind: 'failed'; sent: Answered | Refused | NotSent };

export const MAX_ATTEMPTS = 9;

/**
 * 2xx succeeds; 408, 429, 5xx, a network error or no answer in time is retried; any other status
 * (4xx, and 3xx since redirects are never followed) fails for good. The last retryable outcome of
 * attempt 9 is Exhausted. Retry-After is ignored on purpose (the schedule is fixed).
 */
export function classify(statusCode: number | undefined, attempt: number): OutcomeKind {
  if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) return 'succeeded';
  const retryable = statusCode === undefined || statusCode === 408 || statusCode === 429 || statusCode >= 500;
  if (!retryable) return 'failed';
  return attempt >= MAX_ATTEMPTS ? 'exhausted' : 'retry';
}

/** The outcome of attempt number `attempt` whose request ended as `sent` (the rules of `classify`). */
export function outcomeOf(sent: Sent, attempt: number): Outcome {
  switch (sent.kind) {
    case 'answered':
      return { kind: classify(sent.statusCode, attempt), sent };
    case 'no-answer':
      return { kind: attempt >= MAX_ATTEMPTS ? 'exhausted' : 'retry', sent };
    default:
      return { kind: 'failed', sent };
  }
}

export type DeliveryStatus = 'Pending' | 'Succeeded' | 'Failed' | 'Exhausted';

export const statusAfter = (outcome: OutcomeKind): DeliveryStatus =>
  outcome === 'succeeded'
    ? 'Succeeded'
    : outcome === 'failed'
      ? 'Failed'
      : outcome === 'exhausted'
        ? 'Exhausted'
        : 'Pending';

/** Consecutive Exhausted deliveries that disable a subscription. */
export const DISABLE_AFTER_EXHAUSTED = 10;
