/**
 * Delayed redelivery of a message whose handler failed for a reason that may pass (the store or the
 * broker briefly away). The n-th failure waits `min(baseMs * 2^(n-1), maxDelayMs)` in a back-off queue
 * whose TTL hands the message back to the consumer's own queue; the failure that would make
 * `maxAttempts` handling attempts parks it instead. Configured per process by `CONSUMER_RETRY_*` (`retryEnv` in
 * config.ts, docs/configuration.md).
 */
export interface RetryPolicy {
  /** Delay after the first failure, in ms. */
  baseMs: number;
  /** Upper bound of one delay, in ms. */
  maxDelayMs: number;
  /** Handling attempts (the first included) before a message that keeps failing is parked. */
  maxAttempts: number;
}

/** 1 s, 2 s, 4 s … 5 min, then every 5 min; parked at the 50th failed attempt (after about 3.5 h of waiting). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { baseMs: 1000, maxDelayMs: 300_000, maxAttempts: 50 };

/** Header carrying how many handling attempts of this message failed so far (absent: none). */
export const RETRY_COUNT_HEADER = 'x-retry-count';
/** Header carrying the last failure's message, for whoever looks at a waiting or parked message. */
export const LAST_ERROR_HEADER = 'x-last-error';

/** The delay after the `failures`-th failed attempt (1-based). */
export function backoffDelayMs(policy: RetryPolicy, failures: number): number {
  const exponent = Math.max(0, failures - 1);
  // 2^exponent overflows into Infinity long after the cap is reached; Math.min handles that.
  return Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.min(exponent, 60));
}

/** Every distinct delay the policy can ask for, shortest first: one back-off queue each. */
export function backoffDelays(policy: RetryPolicy): number[] {
  const delays = new Set<number>();
  for (let failures = 1; failures < policy.maxAttempts; failures++) {
    const ms = backoffDelayMs(policy, failures);
    delays.add(ms);
    if (ms === policy.maxDelayMs) break;
  }
  return [...delays];
}

/** `1s`, `250ms`, `5m`, `2h`: exact, so a different delay always gets a different queue name. */
export function delayLabel(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
