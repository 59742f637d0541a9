import type { EventRoutingKey } from '../generated/events';

/**
 * Internal events raised for a consumer that is not built yet (docs/decisions/0186). No service's queue is
 * bound for them, so on their own they would wait in the parking of unroutable events and raise the
 * `TravelExpenseEventsUnroutable` alert for a normal write. Instead they go to `domain.announcements`,
 * which keeps the latest ones for the consumer that comes later. A routing key leaves this list in the
 * change that binds its first consumer (a test holds every event to exactly one of the two).
 */
export const ANNOUNCED_EVENTS = [
  'entries.journal-accounts.updated',
  'reference-fx.per-diem-policy.updated',
] as const satisfies readonly EventRoutingKey[];
