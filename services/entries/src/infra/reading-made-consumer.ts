import { Inbox, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { ReadingsApp } from '../app/readings';
import { parseReadingMade } from '../domain/reading';
import { CONSUMERS } from './topology';

/** The projection of `receipts.reading.made` (docs/decisions/0200); an inbox makes a redelivery a no-op. */
export function startReadingMadeConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  readings: ReadingsApp;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: CONSUMERS.readings,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    prefetch: 10,
    parse: parseReadingMade,
    handle: (event) => deps.readings.project(event),
  });
}
