// The benchmarks' production-like service settings (docs/benchmarks.md), written once: the spec's retry
// schedule and webhook time-out, no response validation, warnings only, no tracing.
import { SPEC_SCHEDULE } from '../../services/webhook-dispatcher/src/domain/schedule';

export const BENCH_SERVICE_ENV = {
  WEBHOOK_RETRY_SCHEDULE: SPEC_SCHEDULE,
  WEBHOOK_TIMEOUT_MS: '10000',
  VALIDATE_RESPONSES: 'false',
  LOG_LEVEL: 'warn',
  OTEL_SDK_DISABLED: 'true',
};

/** The per-key rate limit out of the way: a benchmark's one key writes far beyond a partner's budget. */
export const NO_RATE_LIMIT = { RATE_LIMIT_PER_MINUTE: '100000000', RATE_LIMIT_BURST: '100000000' };
