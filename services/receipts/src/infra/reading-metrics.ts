import type { Metrics } from '@travel/platform';
import type { ReadingMetrics } from '../app/readings';

/**
 * `receipt_readings_total{outcome}` (read, unreadable, failed: an attempt that threw and will be retried,
 * exhausted: Unreadable after the last attempt) and `receipt_reading_duration_seconds{outcome}`.
 */
export function readingMetrics(metrics: Metrics): ReadingMetrics {
  const total = metrics.counter('receipt_readings_total', 'Receipt readings by outcome', ['outcome']);
  const duration = metrics.histogram(
    'receipt_reading_duration_seconds',
    'Time the engine took per reading, by outcome',
    ['outcome'],
    [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  );
  return {
    observe(outcome, seconds) {
      total.inc({ outcome });
      duration.observe({ outcome }, seconds);
    },
  };
}
