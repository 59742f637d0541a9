import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { Inbox, startConsumer, type AmqpClient, type DomainEvent, type Logger, type Metrics } from '@travel/platform';
import schema from '@travel/contracts/events/entries.entry-state.changed.schema.json';
import type { ReadyApp } from '../app/ready';
import type { EntryChange } from '../domain/ready';

/** The queue of the ready-for-payout projection. */
export const READY_QUEUE = { name: 'payouts.ready-projection', bindings: ['entries.entry-state.changed'] };

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const valid = ajv.compile(schema);

/** Validates a message against contracts/events/entries.entry-state.changed.schema.json; throwing parks it. */
export function parseEntryChanged(body: unknown): DomainEvent<EntryChange> {
  if (!valid(body)) throw new Error(`not an entries.entry-state.changed event: ${ajv.errorsText(valid.errors)}`);
  const e = body as unknown as DomainEvent<EntryChange>;
  return {
    ...e,
    data: { ...e.data, entryId: e.data.entryId.toLowerCase(), employeeId: e.data.employeeId.toLowerCase() },
  };
}

export function startEntryChangedConsumer(deps: {
  client: AmqpClient;
  mongo: ConstructorParameters<typeof Inbox>[0];
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
