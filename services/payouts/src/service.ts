import { EnvReader, readBaseConfig, startService, type StartOptions } from '@travel/platform';
import { BatchesApp, type CrashPoint } from './app/batches';
import { ReadyApp } from './app/ready';
import { publicRoutes } from './http/routes';
import { EmployeesClient } from './infra/employees-client';
import { EntriesClient } from './infra/entries-client';
import { startEntryChangedConsumer } from './infra/entry-changed-consumer';
import { registerModels } from './infra/models';

export const SERVICE = 'payouts';
export const DEFAULT_PORT = 8084;

export function readConfig(env: NodeJS.ProcessEnv = process.env) {
  const reader = new EnvReader(env);
  const config = {
    ...readBaseConfig(SERVICE, DEFAULT_PORT, reader),
    /** entries: reserves, commits, releases and undoes the entries of a batch (internal routes). */
    entriesUrl: reader.string('ENTRIES_URL', 'http://127.0.0.1:8082'),
    /** employees: the payer's name and the payees' bank data, for the payment file only. */
    employeesUrl: reader.string('EMPLOYEES_URL', 'http://127.0.0.1:8081'),
    /** How often the recovery job looks for batches a crash left half-way (docs/decisions/0075). */
    recoveryIntervalMs: reader.int('PAYOUT_RECOVERY_INTERVAL_MS', 30_000, { min: 100 }),
    /** A batch is recovered only when its state is older than this (a request may still be working on it). */
    recoveryGraceMs: reader.int('PAYOUT_RECOVERY_GRACE_MS', 120_000, { min: 0 }),
  };
  reader.done();
  return config;
}

export interface PayoutsStartOptions extends StartOptions {
  /** Test seam: the create of a batch "crashes" at this point (docs/decisions/0075, tested). */
  crashAt?: CrashPoint;
}

export function start(env: NodeJS.ProcessEnv = process.env, options: PayoutsStartOptions = {}) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics }) => {
      const models = registerModels(mongo);
      const ready = new ReadyApp(models, logger);
      const batches = new BatchesApp(
        models,
        new EntriesClient(config.entriesUrl, config.internalContextSecret),
        new EmployeesClient(config.employeesUrl, config.internalContextSecret),
        ready,
        logger,
        options.crashAt,
      );
      let timer: NodeJS.Timeout | undefined;
      let running: Promise<unknown> = Promise.resolve();
      const recover = () => {
        running = batches
          .recover(config.recoveryGraceMs)
          .catch((err) => logger.warn({ err: (err as Error).message }, 'payout recovery pass failed'));
        return running;
      };
      return {
        api: publicRoutes({ ready, batches }),
        start: async () => {
          await startEntryChangedConsumer({ client: amqp, mongo, logger, metrics, ready });
          // At start (a crashed replica's batches), then periodically.
          await recover();
          timer = setInterval(() => void recover(), config.recoveryIntervalMs);
          timer.unref();
        },
        stop: async () => {
          clearInterval(timer);
          await running;
        },
      };
    },
    options,
  );
}

export const startPayoutsService = start;
