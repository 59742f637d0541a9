import type { DeliveryDoc } from '../infra/repositories';

/** What tells one new delivery row from another: its id, subscription, event and clock. */
export interface NewDelivery {
  _id: string;
  tenantId: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  occurredAt: Date;
  /** When the row is written (createdAt, updatedAt). */
  at: Date;
  nextAttemptAt: Date | null;
  recovered?: boolean;
}

/** A delivery row as it starts: Pending, series 1, nothing attempted (the fan-out, recovery, a first attempt). */
export function newDeliveryRow(d: NewDelivery): DeliveryDoc {
  // Field by field, not by rest and spread: one row per delivery, on the fan-out's hot path.
  const row: DeliveryDoc = {
    _id: d._id,
    tenantId: d.tenantId,
    subscriptionId: d.subscriptionId,
    eventId: d.eventId,
    eventType: d.eventType,
    occurredAt: d.occurredAt,
    nextAttemptAt: d.nextAttemptAt,
    status: 'Pending',
    series: 1,
    attemptsMade: 0,
    totalAttempts: 0,
    attemptLog: [],
    lastStatusCode: null,
    responseBody: null,
    createdAt: d.at,
    updatedAt: d.at,
  };
  if (d.recovered) row.recovered = true;
  return row;
}
