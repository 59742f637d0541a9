import type { EventRoutingKey } from '@travel/contracts';
import { Inbox, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { UsageRefusals } from '../app/usage-refusals';
import { parseUsageRefused } from '../domain/usage-refused';

/** fleet's refusals of a vehicle use (an inbox makes a redelivery a no-op; a malformed one is parked). */
export const USAGE_REFUSED_QUEUE = {
  name: 'entries.vehicle-usage-refused',
  bindings: ['fleet.vehicle.usage-refused'] satisfies EventRoutingKey[],
};

export function startUsageRefusedConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  refusals: UsageRefusals;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: USAGE_REFUSED_QUEUE,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    prefetch: 10,
    parse: parseUsageRefused,
    handle: (event) => deps.refusals.refused(event),
  });
}
