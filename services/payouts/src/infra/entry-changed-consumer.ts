import { Inbox, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { ReadyApp } from '../app/ready';
import { parseEntryChanged } from '../domain/entry-changed';
import { CONSUMERS } from './topology';

export function startEntryChangedConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  ready: ReadyApp;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: CONSUMERS.ready,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    // Revisions order the changes of one entry, whatever order they arrive in (domain/ready.ts).
    prefetch: 10,
    parse: parseEntryChanged,
    handle: (event) => deps.ready.apply(event.tenantId, event.data, new Date(event.occurredAt)),
  });
}
