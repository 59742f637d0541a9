import type { EnvelopeId } from './types';

// The header carries the GUID dashed (8-4-4-4-12); the envelope carries it as `evt_` + 32 hex.
const DASHED_GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENVELOPE_ID = /^evt_[0-9a-f]{32}$/;

export function isEventId(value: string): boolean {
  return DASHED_GUID.test(value);
}

/** Strict form from the spec: lowercase hex only. */
export function isEnvelopeId(value: string): value is EnvelopeId {
  return ENVELOPE_ID.test(value);
}

/** `evt_0123…` → `01234567-89ab-…` (lowercase). Throws TypeError on anything else. */
export function eventIdFromEnvelopeId(envelopeId: string): string {
  if (!isEnvelopeId(envelopeId)) throw new TypeError('Not an envelope id (expected evt_ + 32 lowercase hex)');
  const hex = envelopeId.slice(4);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Dashed GUID (any case) → `evt_` + 32 lowercase hex. Throws TypeError on anything else. */
export function envelopeIdFromEventId(eventId: string): EnvelopeId {
  if (!isEventId(eventId)) throw new TypeError('Not an event id (expected a GUID in 8-4-4-4-12 form)');
  return `evt_${eventId.replace(/-/g, '').toLowerCase()}`;
}

/** True when the envelope `id` and the `Svc-Event-Id` header name the same event. Never throws. */
export function sameEvent(envelopeId: string, headerEventId: string): boolean {
  if (typeof envelopeId !== 'string' || typeof headerEventId !== 'string') return false;
  if (!isEnvelopeId(envelopeId) || !isEventId(headerEventId)) return false;
  return envelopeIdFromEventId(headerEventId) === envelopeId;
}
