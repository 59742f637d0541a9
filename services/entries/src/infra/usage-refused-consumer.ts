import { Inbox, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { UsageRefusals } from '../app/usage-refusals';
import { parseUsageRefused } from '../domain/usage-refused';
import { CONSUMERS } from './topology';

export function startUsageRefusedConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  refusals: UsageRefusals;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: CONSUMERS.usageRefused,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    prefetch: 10,
    parse: parseUsageRefused,
    handle: (event) => deps.refusals.refused(event),
  });
}
