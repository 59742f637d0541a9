import { Inbox, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { ReadingsApp } from '../app/readings';
import { parseAttachmentEvent } from '../domain/reading';
import { CONSUMERS } from './topology';

/** `entries.attachment.stored` / `.removed` into the readings' queue; an inbox makes a redelivery a no-op. */
export function startAttachmentsConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  readings: Pick<ReadingsApp, 'onAttachment'>;
  /** A reading was queued: this replica's worker starts on it at once. */
  queued: () => void;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: CONSUMERS.attachments,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    prefetch: 20,
    parse: parseAttachmentEvent,
    handle: async (event) => {
      await deps.readings.onAttachment(event);
      if (event.type === 'attachment.stored') deps.queued();
    },
  });
}
