// `reference-fx.allow-list.updated` as employees projects it into the company profile (decision 0184).
import type { EventBody } from '@travel/contracts';
import type { AllowListUpdate } from './company';

export interface AllowListUpdated {
  /** The event's id, which the inbox de-duplicates. */
  id: string;
  tenantId: string;
  update: AllowListUpdate;
}

/**
 * The consumer has already validated the message against its routing key's JSON Schema
 * (contracts/events/internal/reference-fx.allow-list.updated.schema.json) and parked it otherwise.
 */
export function parseAllowListUpdated(body: unknown): AllowListUpdated {
  const e = body as EventBody<'reference-fx.allow-list.updated'>;
  const occurredAt = new Date(e.occurredAt);
  if (Number.isNaN(occurredAt.getTime())) throw new Error(`allow-list.updated ${e.id}: occurredAt is not a date`);
  return { id: e.id, tenantId: e.tenantId, update: { kind: e.data.kind, codes: [...e.data.codes], occurredAt } };
}
