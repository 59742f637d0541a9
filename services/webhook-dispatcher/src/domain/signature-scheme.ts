import { randomBytes } from 'node:crypto';
import { signStandard, sign } from '@travel/webhook-verify';
import type { components } from '@travel/contracts';

/** How a subscription's deliveries are signed (the contract's `WebhookSignatureScheme`; decision 0226). */
export type SignatureScheme = components['schemas']['WebhookSignatureScheme'];

/** The spec's `Svc-*` scheme: what a registration without the field, and every older record, means. */
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'svc';
export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = ['svc', 'standard-webhooks'];

export const schemeOf = (sub: { signatureScheme?: SignatureScheme | null }): SignatureScheme =>
  sub.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME;

/**
 * 32 random bytes (256 bits) in the scheme's form: hex after `whsec_` for `svc` (plain ASCII, used as the
 * key as it is), base64 for Standard Webhooks, whose libraries decode the text after `whsec_` into the key.
 */
export function newSigningSecret(scheme: SignatureScheme): string {
  const bytes = randomBytes(32);
  return `whsec_${bytes.toString(scheme === 'standard-webhooks' ? 'base64' : 'hex')}`;
}

/** What one attempt's signing headers are made of. */
export interface SignedAttempt {
  body: string;
  /** Every secret active now, newest first (both while a rotation's grace lasts). */
  secrets: string[];
  /** The event's dashed GUID. */
  eventId: string;
  /** The envelope `id` (`evt_` + 32 hex): Standard Webhooks' `webhook-id`, the same on every retry. */
  envelopeId: string;
  eventType: string;
  deliveryId: string;
  nowSeconds: number;
}

/**
 * The headers that identify and sign an attempt, by scheme. Standard Webhooks replaces the `Svc-*` signing
 * and identity headers rather than adding to them: one signature per request, keyed one way; the unsigned
 * `Svc-Event` (routing) and `Svc-Delivery-Id` (support) stay (decision 0226).
 */
export function signingHeaders(scheme: SignatureScheme, a: SignedAttempt): Record<string, string> {
  if (scheme === 'standard-webhooks') {
    return {
      'webhook-id': a.envelopeId,
      'webhook-timestamp': String(a.nowSeconds),
      'webhook-signature': signStandard(a.body, a.secrets, a.envelopeId, a.nowSeconds),
      'svc-event': a.eventType,
      'svc-delivery-id': a.deliveryId,
    };
  }
  return {
    'svc-event': a.eventType,
    'svc-event-id': a.eventId,
    'svc-signature': sign(a.body, a.secrets, a.nowSeconds),
    'svc-delivery-id': a.deliveryId,
  };
}
