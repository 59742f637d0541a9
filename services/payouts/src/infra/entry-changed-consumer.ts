import type { EventData, EventRoutingKey } from '@travel/contracts';
import { Inbox, startConsumer, type AmqpClient, type DomainEvent, type Logger, type Metrics } from '@travel/platform';
import type { Connection } from 'mongoose';
import type { ReadyApp } from '../app/ready';
import type { EntryChange } from '../domain/ready';

/** The queue of the ready-for-payout projection. */
export const READY_QUEUE = {
  name: 'payouts.ready-projection',
  bindings: ['entries.entry-state.changed'] satisfies EventRoutingKey[],
};

/**
 * The consumer has already validated the message against its routing key's JSON Schema
 * (contracts/events/internal/entries.entry-state.changed.schema.json) and parked it otherwise; ids are
 * compared in lower case.
 */
export function parseEntryChanged(body: unknown): DomainEvent<EntryChange> {
  const e = body as DomainEvent<EventData<'entries.entry-state.changed'>>;
  return {
    ...e,
    data: { ...e.data, entryId: e.data.entryId.toLowerCase(), employeeId: e.data.employeeId.toLowerCase() },
  };
}

export function startEntryChangedConsumer(deps: {
  client: AmqpClient;
  mongo: Connection;
  logger: Logger;
  metrics: Metrics;
  ready: ReadyApp;
}): Promise<void> {
  return startConsumer({
    client: deps.client,
    queue: READY_QUEUE,
    inbox: new Inbox(deps.mongo),
    logger: deps.logger,
    metrics: deps.metrics,
    // Revisions order the changes of one entry, whatever order they arrive in (domain/ready.ts).
    prefetch: 10,
    parse: parseEntryChanged,
    handle: (event) => deps.ready.apply(event.tenantId, event.data, new Date(event.occurredAt)),
  });
}
