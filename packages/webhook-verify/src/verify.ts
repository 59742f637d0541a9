import { parseEnvelope } from './envelope';
import { WebhookVerificationError } from './errors';
import { eventIdFromEnvelopeId, isEnvelopeId, isEventId, sameEvent } from './event-id';
import {
  WEBHOOK_HEADERS,
  parseSignatureHeader,
  requireSignatureHeader,
  requireSingleHeader,
  type HeaderSource,
} from './headers';
import { anySignatureMatches, computeSignature, secretList, toBuffer, type RawBody, type Secrets } from './signature';
import {
  STANDARD_WEBHOOK_HEADERS,
  anyStandardSignatureMatches,
  computeStandardSignature,
  parseStandardSignatureHeader,
  standardKey,
} from './standard-webhooks';
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
  /** The dashed event GUID, lowercased (`Svc-Event-Id`, or `webhook-id` unprefixed). De-duplicate on this. */
  eventId: string;
  /** `Svc-Delivery-Id`: our delivery row id (useful when talking to support). */
  deliveryId: string;
  /** The signature's `t` (or `webhook-timestamp`), unix seconds. */
  timestamp: number;
}

/** What each scheme's headers say before the body is trusted. */
interface SignedHeaders {
  eventId: string;
  timestamp: number;
  /** True when one of the signatures is the body's under one of the secrets. */
  matches(body: Buffer, secrets: readonly string[]): boolean;
  /** True when the signed envelope's id is the event the headers name. */
  names(envelopeId: string): boolean;
  idHeader: string;
}

// Up to 15 digits keeps the value an exact integer in a JS number.
const TIMESTAMP = /^\d{1,15}$/;

/** The spec's scheme: `Svc-Signature: t=…,v1=<hex>`, the event named by `Svc-Event-Id`. */
function svcHeaders(headers: HeaderSource): SignedHeaders {
  const signature = parseSignatureHeader(requireSignatureHeader(headers));
  const eventId = requireSingleHeader(headers, WEBHOOK_HEADERS.eventId).toLowerCase();
  if (!isEventId(eventId)) {
    throw new WebhookVerificationError('MALFORMED_HEADER', `${WEBHOOK_HEADERS.eventId} must be a GUID (8-4-4-4-12)`);
  }
  return {
    eventId,
    timestamp: signature.timestamp,
    matches: (body, secrets) =>
      anySignatureMatches(
        secrets.map((s) => computeSignature(body, s, signature.timestampText)),
        signature.signatures,
      ),
    names: (envelopeId) => sameEvent(envelopeId, eventId),
    idHeader: WEBHOOK_HEADERS.eventId,
  };
}

/**
 * Standard Webhooks (docs/decisions/0226): `webhook-id` (the envelope id), `webhook-timestamp`,
 * `webhook-signature: v1,<base64> …`, keyed with the base64-decoded secret after `whsec_`.
 */
function standardHeaders(headers: HeaderSource): SignedHeaders {
  const { id, timestamp, signature } = STANDARD_WEBHOOK_HEADERS;
  const signatures = parseStandardSignatureHeader(requireSingleHeader(headers, signature));
  const msgId = requireSingleHeader(headers, id);
  if (!isEnvelopeId(msgId)) throw new WebhookVerificationError('MALFORMED_HEADER', `${id} must be evt_ + 32 hex`);
  const timestampText = requireSingleHeader(headers, timestamp);
  if (!TIMESTAMP.test(timestampText)) {
    throw new WebhookVerificationError('MALFORMED_HEADER', `${timestamp} must be unix seconds`);
  }
  return {
    eventId: eventIdFromEnvelopeId(msgId),
    timestamp: Number(timestampText),
    matches: (body, secrets) => {
      const keys = secrets.map(standardKey).filter((k): k is Buffer => k !== null);
      const expected = keys.map((k) => computeStandardSignature(body, k, msgId, timestampText));
      return anyStandardSignatureMatches(expected, signatures);
    },
    names: (envelopeId) => envelopeId === msgId,
    idHeader: id,
  };
}

/** A delivery carrying `webhook-signature` is on the Standard Webhooks scheme; any other on the spec's. */
function signedHeaders(headers: HeaderSource): SignedHeaders {
  let standard: boolean;
  try {
    standard = requireSingleHeader(headers, STANDARD_WEBHOOK_HEADERS.signature) !== '';
  } catch (error) {
    // Repeated webhook-signature headers are a Standard Webhooks delivery gone wrong, not an Svc one.
    if (error instanceof WebhookVerificationError && error.code === 'MALFORMED_HEADER') throw error;
    standard = false;
  }
  return standard ? standardHeaders(headers) : svcHeaders(headers);
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
  const signed = signedHeaders(headers);
  const eventType = requireSingleHeader(headers, WEBHOOK_HEADERS.event);
  const deliveryId = requireSingleHeader(headers, WEBHOOK_HEADERS.deliveryId);

  // Replay window. The timestamp is signed, so an attacker cannot refresh it on a captured request.
  const ageMs = nowMs - signed.timestamp * 1000;
  if (ageMs > tolerance * 1000) {
    throw new WebhookVerificationError('TIMESTAMP_TOO_OLD', `Signature timestamp is older than ${tolerance} s`);
  }
  if (-ageMs > futureSkew * 1000) {
    throw new WebhookVerificationError('TIMESTAMP_IN_FUTURE', `Signature timestamp is more than ${futureSkew} s ahead`);
  }

  const body = toBuffer(rawBody);
  if (!signed.matches(body, secrets)) {
    throw new WebhookVerificationError('SIGNATURE_MISMATCH', 'No v1 signature matches the body and secret');
  }

  // Only now is the body trusted. The event headers are NOT all covered by the HMAC, so they must agree
  // with the signed envelope before anyone de-duplicates or routes on them.
  const envelope = parseEnvelope(body);
  if (!signed.names(envelope.id)) {
    throw new WebhookVerificationError('EVENT_ID_MISMATCH', `${signed.idHeader} does not match envelope id`);
  }
  if (eventType !== envelope.type) {
    throw new WebhookVerificationError('EVENT_TYPE_MISMATCH', `${WEBHOOK_HEADERS.event} does not match envelope type`);
  }
  const eventId = signed.eventId;
  return { envelope, eventId, deliveryId, timestamp: signed.timestamp };
}
