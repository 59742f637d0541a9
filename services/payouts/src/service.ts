import { EmployeesClient, EntriesClient } from '@travel/contracts';
import {
  ConditionalGets,
  internalTransports,
  parseConfig,
  startPeriodicJob,
  startService,
  type StartOptions,
} from '@travel/platform';
import { BankFilesApp } from './app/bank-files';
import { BatchesApp } from './app/batches';
import type { EntryMarks } from './app/ports';
import { ReadyApp } from './app/ready';
import { configSchema, SERVICE } from './config';
import { publicRoutes } from './http/routes';
import { startEntryChangedConsumer } from './infra/entry-changed-consumer';
import { payoutsRepositories } from './infra/repositories';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export interface PayoutsStartOptions extends StartOptions {
  /**
   * Wraps the entries client the batches use, as a proxy in front of entries would: the tests make a step's
   * answer get lost there, the way a crash or a dropped connection loses it (docs/decisions/0075).
   */
  entryMarks?: (entries: EntryMarks) => EntryMarks;
}

export function start(env: NodeJS.ProcessEnv = process.env, options: PayoutsStartOptions = {}) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics, jobs }) => {
      const repos = payoutsRepositories(mongo);
      const ready = new ReadyApp(repos, logger);
      const to = internalTransports(SERVICE, config.signingKey);
      // The published clients of entries (batch steps, 0075) and employees (payees: name and bank data).
      const entries = new EntriesClient(to('entries', config.entriesUrl, config.entriesTimeoutMs));
      const payees = new EmployeesClient(to('employees', config.employeesUrl, 30_000));
      const batches = new BatchesApp(repos, options.entryMarks?.(entries) ?? entries, payees, ready, logger, {
        reservationMs: config.reservationMs,
        entriesTimeoutMs: config.entriesTimeoutMs,
      });
      const bankFiles = new BankFilesApp(repos, payees, logger);
      let stopRecovery = async () => {};
      // Every public GET answers from the collections' versions (docs/decisions/0155, 0159, 0182).
      const reads = new ConditionalGets(repos.versions);
      return {
        api: publicRoutes({ ready, batches, bankFiles, reads, collections: repos }),
        reads,
        migrate: () => repos.stampEdits(),
        start: async () => {
          await startEntryChangedConsumer({ client: amqp, mongo, logger, metrics, ready });
          // Once per interval across the replicas, and at every start (a crashed replica's batches): the
          // start waits for that first pass, under the lease like any other (0218).
          const recovery = startPeriodicJob(
            {
              name: 'payout recovery',
              everyMs: config.recoveryIntervalMs,
              runAtStart: true,
              run: () => batches.recover(config.recoveryGraceMs),
            },
            jobs,
          );
          stopRecovery = recovery;
          await recovery.firstTick;
        },
        stop: () => stopRecovery(),
      };
    },
    options,
  );
}
