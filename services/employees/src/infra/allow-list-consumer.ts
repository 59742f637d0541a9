import { Inbox, parseTenantId, startConsumer, type AmqpClient, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import { applyAllowList } from '../app/company';
import { parseAllowListUpdated } from '../domain/allow-list-updated';
import type { EmployeesRepositories } from './repositories';
import { CONSUMERS } from './topology';

/** Projects reference-fx's allow-lists into the company profile (decision 0184). */
export function startAllowListConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  repos: EmployeesRepositories;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: CONSUMERS.allowLists,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    // Rare events; `occurredAt` orders the lists of one kind whatever order they are handled in (domain/company.ts).
    prefetch: 4,
    parse: parseAllowListUpdated,
    // The event's tenant is set by the producing service (a trusted seam).
    handle: (event) => applyAllowList(deps.repos, deps.logger, parseTenantId(event.tenantId), event.update),
  });
}
