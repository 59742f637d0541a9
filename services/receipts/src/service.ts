import { EntriesAttachmentsClient } from '@travel/contracts';
import { internalTransports, parseConfig, startService, type StartOptions } from '@travel/platform';
import { ReadingWorker } from './app/reading-worker';
import { ReadingsApp } from './app/readings';
import { configSchema, SERVICE } from './config';
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
      // No public route, so no http room: the gateway sends `…/reading` to entries, which answers from its
      // projection of `receipts.reading.made`, and a read never waits on this CPU-bound service (0200).
      return {
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
