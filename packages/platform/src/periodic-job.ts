import type { Logger } from './logger';

/** A job a service runs at start and then every `everyMs`, on every replica. */
export interface PeriodicJob {
  /** Named in the warning a failed run logs: `<name> failed`. */
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Logged with a failed run's warning (which store, which feed). */
  logFields?: Record<string, unknown>;
}

/** Stops the timer and waits for a run in flight, so a shutdown never closes the store under it. */
export type StopPeriodicJob = () => Promise<void>;

/**
 * Runs the job now and then every `everyMs` (the timer does not keep the process alive). A failed run is
 * logged as a warning and the next one tries again; runs never overlap (a tick while one runs is skipped).
 * Only for idempotent housekeeping whose repetition on several replicas is harmless (a delete by date); a
 * job that must happen once per period needs a lease in the store, not this.
 */
export function startPeriodicJob(job: PeriodicJob, logger: Logger): StopPeriodicJob {
  let inFlight: Promise<void> | undefined;
  const tick = () => {
    inFlight ??= job
      .run()
      .then(
        () => undefined,
        (err) => logger.warn({ ...job.logFields, err: (err as Error)?.message ?? err }, `${job.name} failed`),
      )
      .finally(() => (inFlight = undefined));
  };
  tick();
  const timer = setInterval(tick, job.everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}
