import { parseEnvelope } from './envelope';
import { WebhookVerificationError } from './errors';
import { isEventId, sameEvent } from './event-id';
import {
  WEBHOOK_HEADERS,
  parseSignatureHeader,
  requireSignatureHeader,
  requireSingleHeader,
  type HeaderSource,
} from './headers';
import { anySignatureMatches, computeSignature, secretList, toBuffer, type RawBody, type Secrets } from './signature';
import type { WebhookEnvelope } from './types';

export { sign } from './signature';
export { eventIdFromEnvelopeId, envelopeIdFromEventId, sameEvent } from './event-id';

export const DEFAULT_TOLERANCE_SECONDS = 300;
export const DEFAULT_FUTURE_SKEW_SECONDS = 30;

export interface VerifyOptions {
  /** Reject signatures older than this. Default 300 (the spec's 5 minutes). */
  toleranceSeconds?: number;
  /** Reject signatures further than this in the future (clock skew margin). Default 30. */
  futureSkewSeconds?: number;
  /** Clock in milliseconds since the epoch; injectable for tests. Default `Date.now`. */
  now?: () => number;
}

export interface VerifiedWebhook<E extends WebhookEnvelope = WebhookEnvelope> {
  envelope: E;
  /** `Svc-Event-Id`: the dashed event GUID, lowercased. De-duplicate on this. */
  eventId: string;
  /** `Svc-Delivery-Id`: our delivery row id (useful when talking to support). */
  deliveryId: string;
  /** The signature's `t`, unix seconds. */
  timestamp: number;
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number`);
  return value;
}

/**
 * Authenticates one delivery and returns its envelope, or throws WebhookVerificationError.
 *
 * `rawBody` must be the bytes exactly as received: the HMAC covers them, so a body that was parsed
 * and re-serialized (whitespace, key order, escapes) will not verify. `secret` is the full
 * `whsec_…` string; pass several during a rotation.
 */
export function verify(
  rawBody: RawBody,
  headers: HeaderSource,
  secret: Secrets,
  opts: VerifyOptions = {},
): VerifiedWebhook {
  const secrets = secretList(secret);
  const tolerance = nonNegative('toleranceSeconds', opts.toleranceSeconds, DEFAULT_TOLERANCE_SECONDS);
  const futureSkew = nonNegative('futureSkewSeconds', opts.futureSkewSeconds, DEFAULT_FUTURE_SKEW_SECONDS);
  const nowMs = (opts.now ?? Date.now)();

  // Headers first: cheap, and a request without them is not a delivery at all.
  const signature = parseSignatureHeader(requireSignatureHeader(headers));
  const eventId = requireSingleHeader(headers, WEBHOOK_HEADERS.eventId).toLowerCase();
  if (!isEventId(eventId)) {
    throw new WebhookVerificationError('MALFORMED_HEADER', `${WEBHOOK_HEADERS.eventId} must be a GUID (8-4-4-4-12)`);
  }
  const eventType = requireSingleHeader(headers, WEBHOOK_HEADERS.event);
  const deliveryId = requireSingleHeader(headers, WEBHOOK_HEADERS.deliveryId);

  // Replay window. `t` is signed, so an attacker cannot refresh it on a captured request.
  const ageMs = nowMs - signature.timestamp * 1000;
  if (ageMs > tolerance * 1000) {
    throw new WebhookVerificationError('TIMESTAMP_TOO_OLD', `Signature timestamp is older than ${tolerance} s`);
  }
  if (-ageMs > futureSkew * 1000) {
    throw new WebhookVerificationError('TIMESTAMP_IN_FUTURE', `Signature timestamp is more than ${futureSkew} s ahead`);
  }

  const body = toBuffer(rawBody);
  const expected = secrets.map((s) => computeSignature(body, s, signature.timestampText));
  if (!anySignatureMatches(expected, signature.signatures)) {
    throw new WebhookVerificationError('SIGNATURE_MISMATCH', 'No v1 signature matches the body and secret');
  }

  // Only now is the body trusted. The event headers are NOT covered by the HMAC, so they must agree
  // with the signed envelope before anyone de-duplicates or routes on them.
  const envelope = parseEnvelope(body);
  if (!sameEvent(envelope.id, eventId)) {
    throw new WebhookVerificationError('EVENT_ID_MISMATCH', `${WEBHOOK_HEADERS.eventId} does not match envelope id`);
  }
  if (eventType !== envelope.type) {
    throw new WebhookVerificationError('EVENT_TYPE_MISMATCH', `${WEBHOOK_HEADERS.event} does not match envelope type`);
  }
  return { envelope, eventId, deliveryId, timestamp: signature.timestamp };
}
