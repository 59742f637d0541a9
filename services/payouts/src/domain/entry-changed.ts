// `entries.entry-state.changed` as the ready-for-payout projection consumes it (docs/decisions/0074).
import type { EventData } from '@travel/contracts';
import type { DomainEvent } from '@travel/platform';
import type { EntryChange } from './ready';

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
