import { ConditionalGets, parseConfig, startService, type StartOptions } from '@travel/platform';
import { BatchesApp, type CrashPoint } from './app/batches';
import { ReadyApp } from './app/ready';
import { configSchema } from './config';
import { publicRoutes } from './http/routes';
import { EmployeesClient } from './infra/employees-client';
import { EntriesClient } from './infra/entries-client';
import { startEntryChangedConsumer } from './infra/entry-changed-consumer';
import { payoutsRepositories } from './infra/repositories';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export interface PayoutsStartOptions extends StartOptions {
  /** Test seam: the create of a batch "crashes" at this point (docs/decisions/0075, tested). */
  crashAt?: CrashPoint;
}

export function start(env: NodeJS.ProcessEnv = process.env, options: PayoutsStartOptions = {}) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics }) => {
      const repos = payoutsRepositories(mongo);
      const ready = new ReadyApp(repos, logger);
      const batches = new BatchesApp(
        repos,
        new EntriesClient(config.entriesUrl, config.signingKey, config.entriesTimeoutMs),
        new EmployeesClient(config.employeesUrl, config.signingKey),
        ready,
        logger,
        { reservationMs: config.reservationMs, entriesTimeoutMs: config.entriesTimeoutMs },
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
        // Every public GET answers from the collections' versions (docs/decisions/0155, 0159).
        api: publicRoutes({ ready, batches, reads: new ConditionalGets(repos.versions), collections: repos }),
        migrate: () => repos.stampEdits(),
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
