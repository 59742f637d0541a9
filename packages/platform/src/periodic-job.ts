import type { Logger } from './logger';
import type { JobLeases } from './mongo/job-leases';
import type { Metrics } from './observability/metrics';

/** A job a service runs once per period of `everyMs` across all its replicas (docs/decisions/0218). */
export interface PeriodicJob {
  /** The job's lease in `job_leases`, its metrics' `job` label and its failure's warning: `<name> failed`. */
  name: string;
  /** The period: runs are due once in each `everyMs` since the epoch (a day: once per UTC day). */
  everyMs: number;
  run: () => Promise<unknown>;
  /** Logged with a failed run's warning (which store, which feed). */
  logFields?: Record<string, unknown>;
  /**
   * The process's first tick runs even if this period is done (still under the lease, never beside
   * another run): a repair a restart owes, such as finishing batches a crash left half-way.
   */
  runAtStart?: boolean;
}

/** What every periodic job of a service shares: its leases, their length, its logs and metrics. */
export interface JobScheduling {
  leases: JobLeases;
  /** A run renews its lease every third of this; a holder that died frees it after this (JOB_LEASE_MS). */
  leaseMs: number;
  logger: Logger;
  metrics: Metrics;
}

/** Stops the timer and waits for a run in flight, so a shutdown never closes the store under it. */
export type StopPeriodicJob = (() => Promise<void>) & {
  /** The tick at start, settled when it ran or skipped (a service may wait for its repair). */
  firstTick: Promise<void>;
};

const periodOf = (now: number, everyMs: number) => Math.floor(now / everyMs) * everyMs;

/**
 * Ticks at start and then at the start of every period. A tick takes the job's lease in the store: a
 * period already done, or a lease held by another replica, skips it (counted, not an error). The run
 * renews the lease while it lasts and gives it back at the end; a completed run marks its period done, a
 * failed one is logged as a warning and left to the next period's tick. A replica that dies holding the
 * lease loses it after `leaseMs`. Runs in one process never overlap (a tick while one runs is skipped).
 */
export function startPeriodicJob(job: PeriodicJob, scheduling: JobScheduling): StopPeriodicJob {
  const { leases, leaseMs, logger, metrics } = scheduling;
  const runs = metrics.counter(
    'scheduled_job_runs_total',
    'Runs of a scheduled job in this replica, by outcome (completed, failed)',
    ['job', 'outcome'],
  );
  const skips = metrics.counter(
    'scheduled_job_skips_total',
    'Ticks of a scheduled job that did not run it: its period was done, or another replica held its lease',
    ['job', 'reason'],
  );
  for (const outcome of ['completed', 'failed']) runs.inc({ job: job.name, outcome }, 0);
  for (const reason of ['done', 'held']) skips.inc({ job: job.name, reason }, 0);
  const warn = (err: unknown, message: string) =>
    logger.warn({ ...job.logFields, err: (err as Error)?.message ?? err }, message);

  const runOnce = async (period: Date) => {
    const lease = await leases.take(job.name, period, leaseMs);
    if (typeof lease === 'string') {
      skips.inc({ job: job.name, reason: lease });
      return;
    }
    const renewal = setInterval(() => {
      leases.renew(lease, leaseMs).then(
        (held) => held || warn('expired', `${job.name}: lease lost during the run`),
        (err) => warn(err, `${job.name}: lease not renewed`),
      );
    }, leaseMs / 3);
    renewal.unref();
    let completed = false;
    try {
      await job.run();
      completed = true;
    } finally {
      clearInterval(renewal);
      runs.inc({ job: job.name, outcome: completed ? 'completed' : 'failed' });
      await leases.giveBack(lease, completed).catch((err) => warn(err, `${job.name}: lease not given back`));
    }
  };

  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = (period: Date) =>
    (inFlight ??= runOnce(period)
      .catch((err) => warn(err, `${job.name} failed`))
      .finally(() => (inFlight = undefined)));
  const scheduleNext = () => {
    if (stopped) return;
    const now = Date.now();
    const next = periodOf(now, job.everyMs) + job.everyMs;
    timer = setTimeout(() => {
      // A timer may fire a millisecond early: the period is the one it was set for, or a later one.
      void tick(new Date(periodOf(Math.max(Date.now(), next), job.everyMs)));
      scheduleNext();
    }, next - now);
    timer.unref();
  };
  const now = Date.now();
  // A repair owed at start takes "now" as its period: any completion before it does not count.
  const firstTick = tick(new Date(job.runAtStart ? now : periodOf(now, job.everyMs)));
  scheduleNext();
  return Object.assign(
    async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
    { firstTick },
  );
}
