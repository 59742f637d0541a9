import type { DomainEvent } from '@travel/platform';
import { envelopeIdFromEventId } from '@travel/webhook-verify';

/**
 * The POST body, serialized once per event: every subscription, attempt and manual retry sends these
 * exact bytes (the signature covers them, so they must never be re-serialized).
 */
export function envelopeBytes(event: DomainEvent): string {
  return JSON.stringify({
    id: envelopeIdFromEventId(event.id),
    type: event.type,
    createdAt: event.occurredAt,
    data: event.data,
  });
}
