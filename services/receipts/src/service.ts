import { EntriesAttachmentsClient } from '@travel/contracts';
import { internalTransports, parseConfig, startService, type StartOptions } from '@travel/platform';
import { ReadingWorker } from './app/reading-worker';
import { ReadingsApp } from './app/readings';
import { configSchema, SERVICE } from './config';
import { publicRoutes } from './http/routes';
import { startAttachmentsConsumer } from './infra/attachments-consumer';
import { engineReader } from './infra/engine';
import { backlogGauges, readingMetrics } from './infra/reading-metrics';
import { READINGS_COLLECTION, ReadingStore } from './infra/reading-store';

export { DEFAULT_PORT, SERVICE } from './config';

export const readConfig = (env: NodeJS.ProcessEnv = process.env) => parseConfig(configSchema, env);

export function start(env: NodeJS.ProcessEnv = process.env, options?: StartOptions) {
  const config = readConfig(env);
  return startService(
    config,
    ({ mongo, amqp, logger, metrics }) => {
      const store = new ReadingStore(mongo);
      const to = internalTransports(SERVICE, config.signingKey);
      const entries = new EntriesAttachmentsClient(to('entries', config.entriesUrl, 30_000));
      const readings = new ReadingsApp(
        store,
        entries,
        engineReader,
        { timeoutMs: config.timeoutMs, maxAttempts: config.maxAttempts, retry: config.retry },
        readingMetrics(metrics),
        logger,
      );
      backlogGauges(metrics, store);
      const worker = new ReadingWorker(readings, config.idlePollMs, logger);
      return {
        api: publicRoutes(),
        outboxCollections: [READINGS_COLLECTION],
        start: async () => {
          await startAttachmentsConsumer({
            client: amqp,
            mongo,
            logger,
            metrics,
            readings,
            queued: () => worker.nudge(),
          });
          worker.start();
        },
        stop: () => worker.stop(),
      };
    },
    options,
  );
}
