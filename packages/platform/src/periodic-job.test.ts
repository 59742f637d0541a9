import { startPeriodicJob, type JobScheduling } from './periodic-job';
import type { HeldLease, JobLeases, LeaseRefusal } from './mongo/job-leases';
import type { Logger } from './logger';
import { Metrics } from './observability/metrics';

/** The store's leases in memory, one holder at a time, with the periods done (the real ones: kit/job-leases). */
function memoryLeases() {
  const done = new Map<string, number>();
  const held = new Set<string>();
  const leases = {
    take: async (job: string, period: Date): Promise<HeldLease | LeaseRefusal> => {
      if ((done.get(job) ?? -1) >= period.getTime()) return 'done';
      if (held.has(job)) return 'held';
      held.add(job);
      return { job, holder: 'me', period };
    },
    renew: async () => true,
    giveBack: async (lease: HeldLease, completed: boolean) => {
      held.delete(lease.job);
      if (completed) done.set(lease.job, lease.period.getTime());
      return true;
    },
  };
  return { leases: leases as unknown as JobLeases, done, held };
}

function scheduling(leases: JobLeases) {
  const warnings: string[] = [];
  const logger = { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as Logger;
  const metrics = new Metrics('periodic-job-test');
  const jobs: JobScheduling = { leases, leaseMs: 60_000, logger, metrics };
  const count = async (metric: string, labels: Record<string, string>) =>
    (await metrics.registry.getSingleMetric(metric)!.get()).values.find((v) =>
      Object.entries(labels).every(([k, x]) => v.labels[k] === x),
    )?.value;
  return { jobs, warnings, count };
}

const settle = () => new Promise(jest.requireActual('timers').setImmediate);

describe('startPeriodicJob', () => {
  afterEach(() => jest.useRealTimers());

  it('runs at start, logs a failed run under its name, leaves its period open, and the stop waits for the run', async () => {
    const memory = memoryLeases();
    const { jobs, warnings, count } = scheduling(memory.leases);
    let release!: () => void;
    let finished = false;
    const stop = startPeriodicJob(
      {
        name: 'test purge',
        everyMs: 3_600_000,
        run: () =>
          new Promise<void>((resolve) => (release = resolve)).then(() => {
            finished = true;
            throw new Error('store gone');
          }),
      },
      jobs,
    );
    await settle();
    const stopped = stop();
    expect(finished).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    expect(warnings).toEqual(['test purge failed']);
    expect(await count('scheduled_job_runs_total', { job: 'test purge', outcome: 'failed' })).toBe(1);
    // The lease was given back and the period is not done: the next tick runs it again.
    expect(memory.held.size).toBe(0);
    expect(memory.done.size).toBe(0);
  });

  it('runs once per period: a later tick in a done period and a tick while the lease is held are skips', async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 10, 30, 10, 0, 0, 0) + 100 });
    const memory = memoryLeases();
    const first = scheduling(memory.leases);
    const second = scheduling(memory.leases);
    let runs = 0;
    let release: () => void = () => undefined;
    const job = {
      name: 'hourly',
      everyMs: 3_600_000,
      run: () => {
        runs += 1;
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const stopFirst = startPeriodicJob(job, first.jobs);
    await settle();
    // A second replica starts while the first runs: the lease is held.
    const stopSecond = startPeriodicJob(job, second.jobs);
    await stopSecond.firstTick;
    expect(await second.count('scheduled_job_skips_total', { job: 'hourly', reason: 'held' })).toBe(1);
    release();
    await stopFirst.firstTick;
    expect(runs).toBe(1);
    // 10:00 → 11:00: both replicas tick at the period's start, one of them runs it.
    await jest.advanceTimersByTimeAsync(3_600_000);
    release();
    await settle();
    expect(runs).toBe(2);
    const skips = async (s: typeof first) =>
      (await s.count('scheduled_job_skips_total', { job: 'hourly', reason: 'held' })) ?? 0;
    expect((await skips(first)) + (await skips(second))).toBe(2);
    // A replica restarted within the hour finds its period done.
    const third = scheduling(memory.leases);
    const stopThird = startPeriodicJob(job, third.jobs);
    await stopThird.firstTick;
    expect(await third.count('scheduled_job_skips_total', { job: 'hourly', reason: 'done' })).toBe(1);
    expect(runs).toBe(2);
    await Promise.all([stopFirst(), stopSecond(), stopThird()]);
  });

  it('a job that runs at start runs on a restart within a done period, under the lease', async () => {
    const memory = memoryLeases();
    const { jobs } = scheduling(memory.leases);
    let runs = 0;
    const job = { name: 'repair', everyMs: 3_600_000, runAtStart: true, run: async () => void (runs += 1) };
    const stop = startPeriodicJob(job, jobs);
    await stop.firstTick;
    await stop();
    await new Promise((resolve) => setTimeout(resolve, 2)); // a restart takes its time
    const restarted = startPeriodicJob(job, jobs);
    await restarted.firstTick;
    await restarted();
    expect(runs).toBe(2);
  });
});
