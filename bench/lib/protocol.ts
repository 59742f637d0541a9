// Messages between the benchmark and its two child processes (dispatcher, receiver).

export interface OpStat {
  count: number;
  totalMs: number;
  p50Ms: number;
  p95Ms: number;
}

export interface DispatcherStats {
  type: 'stats';
  /** Cumulative event-loop time (performance.eventLoopUtilization), for a busy share over a window. */
  eluActiveMs: number;
  eluIdleMs: number;
  attempts: Array<{ labels: Record<string, string>; value: number }>;
  handled: Array<{ labels: Record<string, string>; value: number }>;
  rssMb: number;
  /** With BENCH_MONITOR=1: store commands by `<command> <collection>`, broker publishes by destination. */
  store?: Record<string, OpStat>;
  broker?: Record<string, OpStat>;
}

/**
 * One request seen by the receiver: [step, subscription index (-1: the hanging one), event id,
 * arrival (ms since epoch), envelope createdAt (ms since epoch)], and where the parent gave the step's
 * signing secrets (bench/e2e.ts): whether the receiver SDK verified it (1) or refused it (0), and the
 * envelope's `data.id` (the record the event is about).
 */
export type Arrival = [
  step: number,
  sub: number,
  eventId: string,
  arrivedAt: number,
  createdAt: number,
  verified?: 0 | 1,
  subject?: string,
];

export type ReceiverMessage =
  | { type: 'ready'; healthyPort: number; hangingPort: number; pid: number }
  | { type: 'arrivals'; rows: Arrival[] }
  | { type: 'flushed'; token: number; connections: { healthy: number; hanging: number } }
  | { type: 'secrets-set' };
