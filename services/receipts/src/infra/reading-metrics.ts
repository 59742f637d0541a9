import type { Metrics } from '@travel/platform';
import type { ReadingMetrics } from '../app/readings';
import type { ReadingStore } from './reading-store';

const OUTCOMES = ['read', 'unreadable', 'failed', 'exhausted'] as const;

/**
 * `receipt_readings_total{outcome}` (read, unreadable, failed: an attempt that threw and will be retried,
 * exhausted: Unreadable after the last attempt) and `receipt_reading_duration_seconds{outcome}`. Every
 * outcome starts at 0, so a rate and an alert's share of failures exist before the first reading.
 */
export function readingMetrics(metrics: Metrics): ReadingMetrics {
  const total = metrics.counter('receipt_readings_total', 'Receipt readings by outcome', ['outcome']);
  const duration = metrics.histogram(
    'receipt_reading_duration_seconds',
    'Time the engine took per reading, by outcome',
    ['outcome'],
    [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
  );
  for (const outcome of OUTCOMES) {
    total.inc({ outcome }, 0);
    duration.zero({ outcome });
  }
  return {
    observe(outcome, seconds) {
      total.inc({ outcome });
      duration.observe({ outcome }, seconds);
    },
  };
}

/** How long one replica reuses the backlog it read from the store: a scrape every few seconds costs one read. */
export const BACKLOG_CACHE_MS = 15_000;

/**
 * The queue's backlog from the store, shared by every replica (docs/decisions/0202):
 * `receipt_readings_waiting` (readings not done yet, of every company) and
 * `receipt_reading_oldest_waiting_seconds` (0 when none waits). Every replica reports the same store-wide
 * value, read at most every BACKLOG_CACHE_MS: aggregate with `max`, never `sum`.
 */
export function backlogGauges(metrics: Metrics, store: Pick<ReadingStore, 'backlog'>): void {
  let cached: { at: number; value: Promise<{ waiting: number; oldestQueuedAt: Date | null }> } | undefined;
  const backlog = () => {
    const now = Date.now();
    if (!cached || now - cached.at >= BACKLOG_CACHE_MS) {
      const value = store.backlog();
      // A failed read is not kept: the next scrape asks the store again.
      value.catch(() => (cached = undefined));
      cached = { at: now, value };
    }
    return cached.value;
  };
  metrics.gauge(
    'receipt_readings_waiting',
    'Receipt readings not done yet, of every company (store-wide: use max)',
    [],
    async function () {
      this.set((await backlog()).waiting);
    },
  );
  metrics.gauge(
    'receipt_reading_oldest_waiting_seconds',
    'Age of the oldest receipt reading not done yet, 0 when none (store-wide: use max)',
    [],
    async function () {
      const { oldestQueuedAt } = await backlog();
      this.set(oldestQueuedAt ? Math.max(0, (Date.now() - oldestQueuedAt.getTime()) / 1000) : 0);
    },
  );
}
