import { Inbox, parseTenantId, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { UsageApp } from '../app/usage';
import { RELEASED, parseVehicleUsageEvent } from '../domain/usage-events';
import { CONSUMERS } from './topology';

export function startUsageConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  usage: UsageApp;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: CONSUMERS.usage,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    // Revisions order the events of one expense, whatever order they arrive in (domain/usage.ts).
    prefetch: 10,
    parse: parseVehicleUsageEvent,
    handle: async (event) => {
      // The event's tenant is set by the producing service (a trusted seam).
      const tenant = parseTenantId(event.tenantId);
      if (event.type === RELEASED) await deps.usage.released(tenant, event.data);
      else await deps.usage.used(tenant, event.data);
    },
  });
}
