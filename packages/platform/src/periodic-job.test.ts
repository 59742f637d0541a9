import { startPeriodicJob } from './periodic-job';
import type { Logger } from './logger';

const quietLogger = () => {
  const warnings: string[] = [];
  const logger = { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as Logger;
  return { logger, warnings };
};

describe('startPeriodicJob', () => {
  it('runs at start, logs a failed run under its name, and the stop waits for the run in flight', async () => {
    const { logger, warnings } = quietLogger();
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
      logger,
    );
    const stopped = stop();
    expect(finished).toBe(false);
    release();
    await stopped;
    expect(finished).toBe(true);
    expect(warnings).toEqual(['test purge failed']);
  });

  it('does not start a second run while one is in flight, and starts the next tick after it', async () => {
    jest.useFakeTimers();
    const { logger } = quietLogger();
    let runs = 0;
    let release!: () => void;
    const stop = startPeriodicJob(
      {
        name: 'slow',
        everyMs: 5,
        run: () => {
          runs += 1;
          return new Promise<void>((resolve) => (release = resolve));
        },
      },
      logger,
    );
    // Eight intervals pass while the first run still holds.
    jest.advanceTimersByTime(40);
    expect(runs).toBe(1);
    release();
    await new Promise(jest.requireActual('timers').setImmediate);
    jest.advanceTimersByTime(5);
    expect(runs).toBe(2);
    release();
    await stop();
    jest.useRealTimers();
  });
});
